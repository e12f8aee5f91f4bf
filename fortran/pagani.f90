! pagani.f90 - the Fortran 2003 interface of libpagani: `use pagani`.
!
! Everything here mirrors include/pagani.h, which documents each type,
! constant and function; read it there. The derived types pagani_options,
! pagani_result and pagani_integrand_def are bind(C) copies of the C
! structs (tests/test_fortran.sh checks their sizes and offsets against
! the header), the enums are bind(C) enumerators and every function of
! the header has an interface of the same name. C pointers stay
! type(c_ptr): a context or an integrand is a type(c_ptr) handle, a
! parameter block is passed as c_loc(block) (or c_null_ptr), and a
! returned C string is read with pagani_string. The options argument of
! pagani_integrate and pagani_integrate_batch is required (start from
! pagani_options_default). `use pagani` also makes the names of
! iso_c_binding (c_double, c_ptr, c_loc, ...) available.
!
! Helpers of this module (not in the C header):
!   pagani_source(text)  the Fortran string text as integrand source (a C
!                        string: text followed by a NUL); lines may be
!                        joined with c_new_line
!   pagani_string(p)     the C string at p as a Fortran string ('' for a
!                        null pointer), e.g. pagani_string(pagani_strerror(rc))
!
! The progress callback is a bind(C) function with the interface
! pagani_progress_fn, set with options%progress = c_funloc(my_progress);
! a host integrand is a bind(C) function with the interface
! pagani_function, given as c_funloc(f) to pagani_integrand_from_function
! (CPU backend only: the CUDA backend needs source).
!
! Build: gfortran prog.f90 $(pkg-config --cflags --libs pagani)
module pagani
    use, intrinsic :: iso_c_binding
    implicit none

    integer(c_int), parameter :: PAGANI_VERSION_MAJOR = 0
    integer(c_int), parameter :: PAGANI_VERSION_MINOR = 1
    integer(c_int), parameter :: PAGANI_VERSION_PATCH = 0
    integer(c_int), parameter :: PAGANI_MAX_DIM = 64
    integer(c_int), parameter :: PAGANI_MAX_CUBATURE_DIM = 20

    ! pagani_error
    enum, bind(c)
        enumerator :: PAGANI_OK = 0
        enumerator :: PAGANI_ERR_NULL_POINTER
        enumerator :: PAGANI_ERR_DIMENSION
        enumerator :: PAGANI_ERR_BOUNDS
        enumerator :: PAGANI_ERR_TOLERANCE
        enumerator :: PAGANI_ERR_OPTION
        enumerator :: PAGANI_ERR_NO_FORM
        enumerator :: PAGANI_ERR_COMPILE
        enumerator :: PAGANI_ERR_NONFINITE
        enumerator :: PAGANI_ERR_NO_MEMORY
        enumerator :: PAGANI_ERR_BACKEND_UNAVAILABLE
        enumerator :: PAGANI_ERR_CUDA
        enumerator :: PAGANI_ERR_CONTEXT_MISMATCH
        enumerator :: PAGANI_ERR_SYSTEM
        enumerator :: PAGANI_ERR_PARAMS
        enumerator :: PAGANI_ERR_COMPONENTS
        enumerator :: PAGANI_ERR_STOPPED
        enumerator :: PAGANI_ERR_ABORTED
        enumerator :: PAGANI_ERR_STATE
    end enum

    ! pagani_backend
    enum, bind(c)
        enumerator :: PAGANI_BACKEND_AUTO = 0
        enumerator :: PAGANI_BACKEND_CPU
        enumerator :: PAGANI_BACKEND_CUDA
    end enum

    ! pagani_method
    enum, bind(c)
        enumerator :: PAGANI_AUTO = 0
        enumerator :: PAGANI_CUBATURE
        enumerator :: PAGANI_VEGAS
        enumerator :: PAGANI_QMC
    end enum

    ! pagani_status
    enum, bind(c)
        enumerator :: PAGANI_CONVERGED = 0
        enumerator :: PAGANI_MAX_ITERATIONS
        enumerator :: PAGANI_MAX_EVALUATIONS
        enumerator :: PAGANI_OUT_OF_CAPACITY
        enumerator :: PAGANI_NO_PROGRESS
        enumerator :: PAGANI_CHI2_TOO_LARGE
        enumerator :: PAGANI_NO_SIGNAL
        enumerator :: PAGANI_STOPPED
        enumerator :: PAGANI_HEAVY_TAIL
    end enum

    ! pagani_auto_reason (pagani_result%auto_reason)
    enum, bind(c)
        enumerator :: PAGANI_AUTO_NOT_USED = 0
        enumerator :: PAGANI_AUTO_LOW_DIMENSION
        enumerator :: PAGANI_AUTO_SMOOTH
        enumerator :: PAGANI_AUTO_ROUGH
        enumerator :: PAGANI_AUTO_NO_SIGNAL
    end enum
    real(c_double), parameter :: PAGANI_AUTO_SMOOTH_RATIO = 5.66_c_double
    integer(c_long_long), parameter :: &
        PAGANI_DEFAULT_EVALUATIONS_CPU = 1000000000_c_long_long, &
        PAGANI_DEFAULT_EVALUATIONS_CUDA = 1000000000000_c_long_long

    ! pagani_norm (pagani_options%norm), for vector integrands
    enum, bind(c)
        enumerator :: PAGANI_NORM_INDIVIDUAL = 0
        enumerator :: PAGANI_NORM_PAIRED
        enumerator :: PAGANI_NORM_L2
        enumerator :: PAGANI_NORM_L1
        enumerator :: PAGANI_NORM_MAX
    end enum
    ! pagani_strategy (pagani_options%strategy): cubature's refinement
    enum, bind(c)
        enumerator :: PAGANI_STRATEGY_AUTO = 0
        enumerator :: PAGANI_STRATEGY_BREADTH
        enumerator :: PAGANI_STRATEGY_WORST_FIRST
    end enum
    enum, bind(c)
        enumerator :: PAGANI_MAP_RATIONAL = 0
        enumerator :: PAGANI_MAP_EXPONENTIAL
    end enum
    integer(c_int), parameter :: PAGANI_MAX_COMPONENTS = 64
    integer(c_long_long), parameter :: PAGANI_DEFAULT_BLOCK = 8192
    real(c_double), parameter :: PAGANI_MC_SIGMAS_MAX = 100.0_c_double
    ! pagani_options%batch_warm_stride: the measured choice
    integer(c_int), parameter :: PAGANI_BATCH_WARM_STRIDE = 16

    ! pagani_options%flags, combined with ior()
    integer(c_int), parameter :: PAGANI_FLAG_NO_RELERR_FILTER = 1
    integer(c_int), parameter :: PAGANI_FLAG_VEGAS_PLUS = 2
    integer(c_int), parameter :: PAGANI_FLAG_VEGAS_1D = 4
    integer(c_int), parameter :: PAGANI_FLAG_NO_PROBES = 8

    ! struct pagani_integrand_def
    type, bind(c) :: pagani_integrand_def
        type(c_funptr) :: function    ! pagani_function, may be null
        type(c_ptr) :: source         ! C string, may be null
    end type

    ! struct pagani_vector_integrand_def
    type, bind(c) :: pagani_vector_integrand_def
        integer(c_int) :: ncomp
        type(c_funptr) :: function    ! pagani_vector_function, may be null
        type(c_ptr) :: source         ! C string, may be null
    end type

    ! struct pagani_options; unsigned fields (flags, seed) are signed here
    type, bind(c) :: pagani_options
        integer(c_int) :: method
        real(c_double) :: epsrel
        real(c_double) :: epsabs
        integer(c_long_long) :: max_evaluations
        integer(c_int) :: max_iterations
        integer(c_int) :: flags
        integer(c_long_long) :: seed
        integer(c_int) :: rule_degree
        integer(c_int) :: initial_splits
        real(c_double) :: vegas_calls
        integer(c_int) :: vegas_adjust_iterations
        integer(c_int) :: vegas_bins
        real(c_double) :: vegas_alpha
        real(c_double) :: vegas_beta
        real(c_double) :: chi2_max
        integer(c_int) :: qmc_shifts
        integer(c_long_long) :: qmc_initial_points
        integer(c_int) :: qmc_transform
        type(c_funptr) :: progress    ! pagani_progress_fn, may be null
        type(c_ptr) :: progress_data
        integer(c_int) :: norm        ! PAGANI_NORM_*
        real(c_double) :: mc_sigmas   ! Monte Carlo: converged at this many sigma
        real(c_double) :: domain_scale ! unbounded axes: the map's length s
        type(c_ptr) :: breaks         ! cubature: break points, or null
        type(c_ptr) :: break_counts   ! their counts per axis (int), or null
        integer(c_int) :: domain_map  ! PAGANI_MAP_*
        type(c_ptr) :: domain_centers ! per axis: the line's centre c, or null
        type(c_ptr) :: domain_scales  ! per axis: the map's length s, or null
        type(c_ptr) :: state_path     ! checkpoint file (C string), or null
        real(c_double) :: state_interval ! seconds between checkpoints
        integer(c_int) :: strategy    ! cubature: PAGANI_STRATEGY_*
        type(c_ptr) :: vegas_grid_in  ! Vegas warm start: grid, or null
        type(c_ptr) :: vegas_grid_out ! Vegas: grid to fill, or null
        integer(c_int) :: batch_warm_stride ! Vegas batch: pilot stride, 0 off
    end type

    ! struct pagani_result
    type, bind(c) :: pagani_result
        real(c_double) :: value
        real(c_double) :: error
        integer(c_int) :: status
        integer(c_long_long) :: evaluations
        integer(c_long_long) :: regions
        integer(c_int) :: iterations
        real(c_double) :: chi2_dof
        integer(c_int) :: method
        integer(c_int) :: backend
        integer(c_int) :: rule_degree
        real(c_double) :: seconds
        integer(c_int) :: by_epsabs    ! 1: epsabs, not epsrel, decided
        integer(c_int) :: auto_reason  ! PAGANI_AUTO_* (pagani_auto_reason)
    end type

    abstract interface
        ! A host integrand: x(1:n) is the point, params the parameter block.
        function pagani_function(x, n, params) result(value) bind(c)
            import :: c_double, c_int, c_ptr
            integer(c_int), value :: n
            real(c_double), intent(in) :: x(n)
            type(c_ptr), value :: params
            real(c_double) :: value
        end function

        ! The progress callback: non-zero stops the integration.
        function pagani_progress_fn(iteration, size, estimate, error, data) &
                result(stop) bind(c)
            import :: c_double, c_int, c_long_long, c_ptr
            integer(c_int), value :: iteration
            integer(c_long_long), value :: size
            real(c_double), value :: estimate
            real(c_double), value :: error
            type(c_ptr), value :: data
            integer(c_int) :: stop
        end function
    end interface

    interface
        ! ---- contexts ----
        function pagani_context_create(ctx, backend) result(rc) &
                bind(c, name='pagani_context_create')
            import :: c_int, c_ptr
            type(c_ptr), intent(out) :: ctx
            integer(c_int), value :: backend
            integer(c_int) :: rc
        end function

        subroutine pagani_context_destroy(ctx) &
                bind(c, name='pagani_context_destroy')
            import :: c_ptr
            type(c_ptr), value :: ctx
        end subroutine

        function pagani_context_backend(ctx) result(backend) &
                bind(c, name='pagani_context_backend')
            import :: c_int, c_ptr
            type(c_ptr), value :: ctx
            integer(c_int) :: backend
        end function

        function pagani_context_set_threads(ctx, threads) result(rc) &
                bind(c, name='pagani_context_set_threads')
            import :: c_int, c_ptr
            type(c_ptr), value :: ctx
            integer(c_int), value :: threads
            integer(c_int) :: rc
        end function

        function pagani_context_set_memory(ctx, bytes) result(rc) &
                bind(c, name='pagani_context_set_memory')
            import :: c_int, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            integer(c_size_t), value :: bytes
            integer(c_int) :: rc
        end function

        function pagani_context_message(ctx) result(message) &
                bind(c, name='pagani_context_message')
            import :: c_ptr
            type(c_ptr), value :: ctx
            type(c_ptr) :: message
        end function

        ! asks the integration running on ctx (another thread) to stop
        subroutine pagani_context_request_stop(ctx) &
                bind(c, name='pagani_context_request_stop')
            import :: c_ptr
            type(c_ptr), value :: ctx
        end subroutine

        ! ---- integrands ----
        function pagani_integrand_from_function(ctx, f, n, function, params, &
                params_size) result(rc) &
                bind(c, name='pagani_integrand_from_function')
            import :: c_funptr, c_int, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            type(c_funptr), value :: function
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            integer(c_int) :: rc
        end function

        function pagani_integrand_from_source(ctx, f, n, source, params, &
                params_size) result(rc) &
                bind(c, name='pagani_integrand_from_source')
            import :: c_char, c_int, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            character(kind=c_char), intent(in) :: source(*)
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            integer(c_int) :: rc
        end function

        ! A vector integrand from source: a body writing f[0] .. f[ncomp-1]
        ! (C indices); its values come back in values(1:ncomp).
        function pagani_integrand_from_vector_source(ctx, f, n, ncomp, &
                source, params, params_size) result(rc) &
                bind(c, name='pagani_integrand_from_vector_source')
            import :: c_char, c_int, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            integer(c_int), value :: ncomp
            character(kind=c_char), intent(in) :: source(*)
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            integer(c_int) :: rc
        end function

        ! A vector host integrand: a bind(C) subroutine f(x, n, params, values)
        ! that sets values(1:ncomp).
        function pagani_integrand_from_vector_function(ctx, f, n, ncomp, &
                function, params, params_size) result(rc) &
                bind(c, name='pagani_integrand_from_vector_function')
            import :: c_funptr, c_int, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            integer(c_int), value :: ncomp
            type(c_funptr), value :: function
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            integer(c_int) :: rc
        end function

        ! A vectorized host integrand: a bind(C) integer(c_int) function
        ! f(x, n, npoints, params, values, data) with x(n, npoints) and
        ! values(ncomp, npoints), n (c_int), npoints (c_long_long), params
        ! and data (type(c_ptr)) by value; it returns 0, or non-zero to stop
        ! the integration (PAGANI_ERR_ABORTED).
        function pagani_integrand_from_block_function(ctx, f, n, ncomp, &
                function, data, max_block, params, params_size) result(rc) &
                bind(c, name='pagani_integrand_from_block_function')
            import :: c_funptr, c_int, c_long_long, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            integer(c_int), value :: ncomp
            type(c_funptr), value :: function
            type(c_ptr), value :: data
            integer(c_long_long), value :: max_block
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            integer(c_int) :: rc
        end function

        function pagani_integrand_create_vector(ctx, f, n, def) result(rc) &
                bind(c, name='pagani_integrand_create_vector')
            import :: c_int, c_ptr, pagani_vector_integrand_def
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            type(pagani_vector_integrand_def), intent(in) :: def
            integer(c_int) :: rc
        end function

        function pagani_integrand_components(f) result(ncomp) &
                bind(c, name='pagani_integrand_components')
            import :: c_int, c_ptr
            type(c_ptr), value :: f
            integer(c_int) :: ncomp
        end function

        function pagani_integrand_create(ctx, f, n, def) result(rc) &
                bind(c, name='pagani_integrand_create')
            import :: c_int, c_ptr, pagani_integrand_def
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            type(pagani_integrand_def), intent(in) :: def
            integer(c_int) :: rc
        end function

        function pagani_integrand_set_params(f, params, params_size) &
                result(rc) bind(c, name='pagani_integrand_set_params')
            import :: c_int, c_ptr, c_size_t
            type(c_ptr), value :: f
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            integer(c_int) :: rc
        end function

        subroutine pagani_integrand_destroy(f) &
                bind(c, name='pagani_integrand_destroy')
            import :: c_ptr
            type(c_ptr), value :: f
        end subroutine

        ! ---- integration ----
        function pagani_options_default(method) result(options) &
                bind(c, name='pagani_options_default')
            import :: c_int, pagani_options
            integer(c_int), value :: method
            type(pagani_options) :: options
        end function

        function pagani_vegas_grid_create(grid) result(rc) &
                bind(c, name='pagani_vegas_grid_create')
            import :: c_int, c_ptr
            type(c_ptr), intent(out) :: grid
            integer(c_int) :: rc
        end function

        subroutine pagani_vegas_grid_destroy(grid) &
                bind(c, name='pagani_vegas_grid_destroy')
            import :: c_ptr
            type(c_ptr), value :: grid
        end subroutine

        function pagani_integrate(ctx, f, lower, upper, options, result) &
                result(rc) bind(c, name='pagani_integrate')
            import :: c_double, c_int, c_ptr, pagani_options, pagani_result
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            type(pagani_options), intent(in) :: options
            type(pagani_result), intent(out) :: result
            integer(c_int) :: rc
        end function

        ! ---- batches ----
        ! Block k (1-based here) is at params + (k-1) * params_size bytes,
        ! its box at lower((k-1) * box_stride + 1:): pass c_loc(blocks) of
        ! an array blocks(m, count) with params_size = m * 8 for m doubles.
        function pagani_integrate_batch(ctx, f, count, params, params_size, &
                lower, upper, box_stride, options, results) result(rc) &
                bind(c, name='pagani_integrate_batch')
            import :: c_double, c_int, c_ptr, c_size_t, pagani_options, &
                pagani_result
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            integer(c_int), value :: count
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            integer(c_size_t), value :: box_stride
            type(pagani_options), intent(in) :: options
            type(pagani_result), intent(out) :: results(*)
            integer(c_int) :: rc
        end function

        ! ---- vector integrands ----
        ! Integral k's component c (1-based) is values(c + (k-1) * ncomp).
        function pagani_integrate_vector(ctx, f, lower, upper, options, &
                result, values, errors) result(rc) &
                bind(c, name='pagani_integrate_vector')
            import :: c_double, c_int, c_ptr, pagani_options, pagani_result
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            type(pagani_options), intent(in) :: options
            type(pagani_result), intent(out) :: result
            real(c_double), intent(out) :: values(*)
            real(c_double), intent(out) :: errors(*)
            integer(c_int) :: rc
        end function

        function pagani_integrate_batch_vector(ctx, f, count, params, &
                params_size, lower, upper, box_stride, options, results, &
                values, errors) result(rc) &
                bind(c, name='pagani_integrate_batch_vector')
            import :: c_double, c_int, c_ptr, c_size_t, pagani_options, &
                pagani_result
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            integer(c_int), value :: count
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            integer(c_size_t), value :: box_stride
            type(pagani_options), intent(in) :: options
            type(pagani_result), intent(out) :: results(*)
            real(c_double), intent(out) :: values(*)
            real(c_double), intent(out) :: errors(*)
            integer(c_int) :: rc
        end function

        ! Gradients (README, "Gradients"): a vector integrand of the values
        ! and their derivatives by the parameters p[which(j)] (which:
        ! c_null_ptr for all; c_loc of a c_int array of 0-based indices).
        function pagani_integrand_gradient_from_source(ctx, f, n, ncomp, &
                source, params, params_size, which, nwhich) result(rc) &
                bind(c, name='pagani_integrand_gradient_from_source')
            import :: c_char, c_int, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            integer(c_int), value :: ncomp
            character(kind=c_char), intent(in) :: source(*)
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            type(c_ptr), value :: which
            integer(c_int), value :: nwhich
            integer(c_int) :: rc
        end function

        ! A host gradient: a bind(C) subroutine f(x, n, params, values)
        ! setting the ncomp values, then each one's nparams derivatives.
        function pagani_integrand_gradient_from_function(ctx, f, n, ncomp, &
                nparams, function, params, params_size) result(rc) &
                bind(c, name='pagani_integrand_gradient_from_function')
            import :: c_funptr, c_int, c_ptr, c_size_t
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: f
            integer(c_int), value :: n
            integer(c_int), value :: ncomp
            integer(c_int), value :: nparams
            type(c_funptr), value :: function
            type(c_ptr), value :: params
            integer(c_size_t), value :: params_size
            integer(c_int) :: rc
        end function

        function pagani_integrate_gradient(ctx, f, lower, upper, options, &
                result, value, error, gradient, gradient_error) result(rc) &
                bind(c, name='pagani_integrate_gradient')
            import :: c_double, c_int, c_ptr, pagani_options, pagani_result
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            type(pagani_options), intent(in) :: options
            type(pagani_result), intent(out) :: result
            real(c_double), intent(out) :: value(*)
            real(c_double), intent(out) :: error(*)
            real(c_double), intent(out) :: gradient(*)
            real(c_double), intent(out) :: gradient_error(*)
            integer(c_int) :: rc
        end function

        ! The derivatives by the limits: results(2n), dlower(n ncomp) ...
        function pagani_integrate_limits_gradient(ctx, f, lower, upper, &
                options, results, dlower, dlower_error, dupper, &
                dupper_error) result(rc) &
                bind(c, name='pagani_integrate_limits_gradient')
            import :: c_double, c_int, c_ptr, pagani_options, pagani_result
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            type(pagani_options), intent(in) :: options
            type(pagani_result), intent(out) :: results(*)
            real(c_double), intent(out) :: dlower(*)
            real(c_double), intent(out) :: dlower_error(*)
            real(c_double), intent(out) :: dupper(*)
            real(c_double), intent(out) :: dupper_error(*)
            integer(c_int) :: rc
        end function

        ! ---- QMC in parts ----
        ! A record is an integer(c_long_long) array of 12 + 69 * shifts
        ! words (PAGANI_QMC_PART_WORDS in pagani.h); records is an array
        ! of c_loc(record) pointers.
        function pagani_qmc_part(ctx, f, lower, upper, options, points, &
                part, parts, record) result(rc) &
                bind(c, name='pagani_qmc_part')
            import :: c_double, c_int, c_long_long, c_ptr, pagani_options
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            type(pagani_options), intent(in) :: options
            integer(c_long_long), value :: points
            integer(c_int), value :: part
            integer(c_int), value :: parts
            integer(c_long_long), intent(out) :: record(*)
            integer(c_int) :: rc
        end function

        function pagani_qmc_combine_parts(ctx, f, lower, upper, options, &
                count, records, result) result(rc) &
                bind(c, name='pagani_qmc_combine_parts')
            import :: c_double, c_int, c_ptr, pagani_options, pagani_result
            type(c_ptr), value :: ctx
            type(c_ptr), value :: f
            real(c_double), intent(in) :: lower(*)
            real(c_double), intent(in) :: upper(*)
            type(pagani_options), intent(in) :: options
            integer(c_int), value :: count
            type(c_ptr), intent(in) :: records(*)
            type(pagani_result), intent(out) :: result
            integer(c_int) :: rc
        end function

        ! ---- names (C strings: read them with pagani_string) ----
        function pagani_strerror(code) result(name) &
                bind(c, name='pagani_strerror')
            import :: c_int, c_ptr
            integer(c_int), value :: code
            type(c_ptr) :: name
        end function

        function pagani_status_name(status) result(name) &
                bind(c, name='pagani_status_name')
            import :: c_int, c_ptr
            integer(c_int), value :: status
            type(c_ptr) :: name
        end function

        function pagani_method_name(method) result(name) &
                bind(c, name='pagani_method_name')
            import :: c_int, c_ptr
            integer(c_int), value :: method
            type(c_ptr) :: name
        end function

        function pagani_auto_reason_name(reason) result(name) &
                bind(c, name='pagani_auto_reason_name')
            import :: c_int, c_ptr
            integer(c_int), value :: reason
            type(c_ptr) :: name
        end function

        function pagani_backend_name(backend) result(name) &
                bind(c, name='pagani_backend_name')
            import :: c_int, c_ptr
            integer(c_int), value :: backend
            type(c_ptr) :: name
        end function

        function pagani_version() result(version) &
                bind(c, name='pagani_version')
            import :: c_ptr
            type(c_ptr) :: version
        end function
    end interface

    ! The C library's strlen, for pagani_string.
    interface
        pure function c_strlen(s) result(length) bind(c, name='strlen')
            import :: c_ptr, c_size_t
            type(c_ptr), value, intent(in) :: s
            integer(c_size_t) :: length
        end function
    end interface
    private :: c_strlen, c_string_length

contains

    ! text followed by a NUL: a C string, as integrand source.
    function pagani_source(text) result(source)
        character(len=*), intent(in) :: text
        character(kind=c_char, len=len(text) + 1) :: source

        source = text // c_null_char
    end function

    ! The length of the C string at p; 0 for a null pointer.
    pure function c_string_length(p) result(length)
        type(c_ptr), intent(in) :: p
        integer :: length

        length = 0
        if (c_associated(p)) length = int(c_strlen(p))
    end function

    ! The C string at p (a name, a message) as a Fortran string.
    function pagani_string(p) result(text)
        type(c_ptr), intent(in) :: p
        character(len=c_string_length(p)) :: text
        character(kind=c_char), pointer :: chars(:)
        integer :: i

        if (len(text) == 0) return
        call c_f_pointer(p, chars, [len(text)])
        do i = 1, len(text)
            text(i:i) = chars(i)
        end do
    end function
end module pagani
