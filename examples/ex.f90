! ex.f90 - the Fortran twin of gauss.c: a 5-D Gaussian to 6 digits with
! PAGANI cubature, on the GPU when one is usable, else on the CPU.
! Build: gfortran ex.f90 $(pkg-config --cflags --libs pagani)
program ex
    use pagani
    implicit none
    ! The integrand as C source (Fortran has no PAGANI_INTEGRAND): it sees
    ! x[0] .. x[n-1], n and <math.h>.
    character(len=*), parameter :: gauss = &
        'double s = 0.0;' // c_new_line // &
        'for (int i = 0; i < n; i++) s += (x[i] - 0.5) * (x[i] - 0.5);' // &
        c_new_line // 'return exp(-625.0 * s);'
    type(c_ptr) :: ctx, f = c_null_ptr
    type(pagani_options) :: opt
    type(pagani_result) :: r
    real(c_double) :: lo(5) = 0, hi(5) = 1
    integer(c_int) :: rc

    if (pagani_context_create(ctx, PAGANI_BACKEND_AUTO) /= PAGANI_OK) stop 1
    rc = pagani_integrand_from_source(ctx, f, 5, pagani_source(gauss), &
                                      c_null_ptr, 0_c_size_t)
    if (rc == PAGANI_OK) then
        opt = pagani_options_default(PAGANI_CUBATURE)
        opt%epsrel = 1e-6_c_double
        rc = pagani_integrate(ctx, f, lo, hi, opt, r)
    end if
    if (rc /= PAGANI_OK) then
        write (0, '(a, ": ", a)') pagani_string(pagani_strerror(rc)), &
            pagani_string(pagani_context_message(ctx))
    else
        write (*, '(es22.15, " +- ", es8.2, 3(a, a), ")")') r%value, &
            r%error, " (", pagani_string(pagani_status_name(r%status)), &
            ", ", pagani_string(pagani_method_name(r%method)), &
            " on ", pagani_string(pagani_backend_name(r%backend))
    end if
    call pagani_integrand_destroy(f)
    call pagani_context_destroy(ctx)
    if (rc /= PAGANI_OK) stop 1
end program
