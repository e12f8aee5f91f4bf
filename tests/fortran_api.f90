! fortran_api.f90 - TAP checks of the pagani module in use, on the CPU
! backend: integrand source from a Fortran string, a parameter block, a
! host integrand and a progress callback written in Fortran, a batch, an
! error code with its names, against analytic values.
module fortran_api_callbacks
    use pagani
    implicit none
contains
    ! x(1) * x(2): a host integrand in Fortran.
    function xy_product(x, n, params) result(value) bind(c)
        integer(c_int), value :: n
        real(c_double), intent(in) :: x(n)
        type(c_ptr), value :: params
        real(c_double) :: value

        value = x(1) * x(2)
    end function

    ! Counts its calls in the integer at data; stops at the second.
    function stop_at_two(iteration, size, estimate, error, data) &
            result(stop) bind(c)
        integer(c_int), value :: iteration
        integer(c_long_long), value :: size
        real(c_double), value :: estimate, error
        type(c_ptr), value :: data
        integer(c_int) :: stop
        integer(c_int), pointer :: calls

        call c_f_pointer(data, calls)
        calls = calls + 1
        stop = merge(1, 0, iteration >= 2)
    end function
end module

program fortran_api
    use pagani
    use fortran_api_callbacks
    implicit none
    type(c_ptr) :: ctx, f = c_null_ptr, g = c_null_ptr
    type(pagani_options) :: opt
    type(pagani_result) :: r, batch(3)
    ! a: one parameter block; blocks: three, one a column
    real(c_double), target :: a(1) = 2, blocks(1, 3)
    real(c_double) :: lo(3) = 0, hi(3) = 1, values(2), errors(2)
    integer(c_int), target :: calls = 0
    integer(c_int) :: rc, k, tests = 0
    logical :: good
    character(len=16) :: version

    call check(pagani_context_create(ctx, PAGANI_BACKEND_CPU) == PAGANI_OK, &
        'a context on the CPU')
    write (version, '(i0, ".", i0, ".", i0)') PAGANI_VERSION_MAJOR, &
        PAGANI_VERSION_MINOR, PAGANI_VERSION_PATCH
    call check(pagani_string(pagani_version()) == trim(version), &
        'pagani_string(pagani_version()) is ' // trim(version))

    ! Source from a Fortran string, with a parameter block: the integral
    ! of exp(-p[0] x) over [0, 1] is (1 - exp(-a)) / a.
    rc = pagani_integrand_from_source(ctx, f, 1, &
        pagani_source('exp(-p[0] * x[0])'), c_loc(a), c_sizeof(a))
    opt = pagani_options_default(PAGANI_CUBATURE)
    opt%epsrel = 1e-10_c_double
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, opt, r)
    call check(rc == PAGANI_OK .and. r%status == PAGANI_CONVERGED .and. &
        close(r%value, (1 - exp(-2d0)) / 2), &
        'exp(-p[0] x) with p = 2 from pagani_source: (1 - exp(-2)) / 2')

    ! A batch of three parameter blocks, a = 1, 2, 3.
    blocks(1, :) = [1, 2, 3]
    rc = pagani_integrate_batch(ctx, f, 3, c_loc(blocks), &
        c_sizeof(a), lo, hi, 0_c_size_t, opt, batch)
    good = rc == PAGANI_OK
    do k = 1, 3
        good = good .and. batch(k)%status == PAGANI_CONVERGED .and. &
            close(batch(k)%value, (1 - exp(-real(k, c_double))) / k)
    end do
    call check(good, 'pagani_integrate_batch: (1 - exp(-a)) / a, a = 1, 2, 3')

    ! A bad box: the error code, its name and the context's message.
    rc = pagani_integrate(ctx, f, hi, lo, opt, r)
    call check(rc == PAGANI_ERR_BOUNDS .and. &
        len(pagani_string(pagani_strerror(rc))) > 0 .and. &
        len(pagani_string(pagani_context_message(ctx))) > 0, &
        'lower > upper: PAGANI_ERR_BOUNDS with a name and a message')

    ! A host integrand in Fortran: x0 * x1 over the unit square is 1/4.
    rc = pagani_integrand_from_function(ctx, g, 2, c_funloc(xy_product), &
        c_null_ptr, 0_c_size_t)
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, g, lo, hi, opt, r)
    call check(rc == PAGANI_OK .and. close(r%value, 0.25d0), &
        'a bind(C) Fortran function as a host integrand: 1/4')

    ! The progress callback: stops the run at its second call.
    call pagani_integrand_destroy(g)
    rc = pagani_integrand_from_source(ctx, g, 3, pagani_source( &
        'exp(-625 * ((x[0]-.5)*(x[0]-.5) + (x[1]-.5)*(x[1]-.5) + ' // &
        '(x[2]-.5)*(x[2]-.5)))'), c_null_ptr, 0_c_size_t)
    opt%epsrel = 1e-12_c_double
    opt%progress = c_funloc(stop_at_two)
    opt%progress_data = c_loc(calls)
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, g, lo, hi, opt, r)
    call check(rc == PAGANI_OK .and. r%status == PAGANI_STOPPED .and. &
        calls == 2, 'a Fortran progress callback stops the run: ' // &
        pagani_string(pagani_status_name(r%status)))

    ! A vector integrand: exp(-x) and x exp(-x) over [0, 1], components
    ! 1 - 1/e and 1 - 2/e, in the L2 norm.
    call pagani_integrand_destroy(g)
    rc = pagani_integrand_from_vector_source(ctx, g, 1, 2, pagani_source( &
        'f[0] = exp(-x[0]); f[1] = x[0] * f[0];'), c_null_ptr, 0_c_size_t)
    opt = pagani_options_default(PAGANI_CUBATURE)
    opt%epsrel = 1e-11_c_double
    opt%norm = PAGANI_NORM_L2
    if (rc == PAGANI_OK) &
        rc = pagani_integrate_vector(ctx, g, lo, hi, opt, r, values, errors)
    call check(rc == PAGANI_OK .and. r%status == PAGANI_CONVERGED .and. &
        pagani_integrand_components(g) == 2 .and. &
        close(values(1), 1 - exp(-1d0)) .and. &
        close(values(2), 1 - 2 * exp(-1d0)), &
        'pagani_integrate_vector: exp(-x) and x exp(-x), L2 norm')

    call pagani_integrand_destroy(g)
    call pagani_integrand_destroy(f)
    call pagani_context_destroy(ctx)
    write (*, '("1..", i0)') tests

contains

    ! Prints "ok N - name" or "not ok N - name".
    subroutine check(condition, name)
        logical, intent(in) :: condition
        character(len=*), intent(in) :: name

        tests = tests + 1
        if (condition) then
            write (*, '("ok ", i0, " - ", a)') tests, name
        else
            write (*, '("not ok ", i0, " - ", a)') tests, name
        end if
    end subroutine

    ! Whether value is within 1e-9 (relative) of truth.
    logical function close(value, truth)
        real(c_double), intent(in) :: value, truth

        close = abs(value - truth) <= 1e-9_c_double * abs(truth)
    end function
end program
