! fortran_layout.f90 - prints the sizes and field offsets of the pagani
! module's bind(C) types and enums in the form of tests/c_layout.c, which
! prints them from pagani.h; tests/test_fortran.sh compares the two.
program fortran_layout
    use pagani
    implicit none
    type(pagani_integrand_def), target :: def
    type(pagani_vector_integrand_def), target :: vdef
    type(pagani_options), target :: o
    type(pagani_result), target :: r

    call size('pagani_error', c_sizeof(PAGANI_OK))
    call size('pagani_backend', c_sizeof(PAGANI_BACKEND_AUTO))
    call size('pagani_method', c_sizeof(PAGANI_AUTO))
    call size('pagani_status', c_sizeof(PAGANI_CONVERGED))
    call size('pagani_norm', c_sizeof(PAGANI_NORM_INDIVIDUAL))

    call size('pagani_integrand_def', c_sizeof(def))
    call field('pagani_integrand_def.function', c_loc(def), c_loc(def%function))
    call field('pagani_integrand_def.source', c_loc(def), c_loc(def%source))

    call size('pagani_vector_integrand_def', c_sizeof(vdef))
    call field('pagani_vector_integrand_def.ncomp', c_loc(vdef), &
        c_loc(vdef%ncomp))
    call field('pagani_vector_integrand_def.function', c_loc(vdef), &
        c_loc(vdef%function))
    call field('pagani_vector_integrand_def.source', c_loc(vdef), &
        c_loc(vdef%source))

    call size('pagani_options', c_sizeof(o))
    call field('pagani_options.method', c_loc(o), c_loc(o%method))
    call field('pagani_options.epsrel', c_loc(o), c_loc(o%epsrel))
    call field('pagani_options.epsabs', c_loc(o), c_loc(o%epsabs))
    call field('pagani_options.max_evaluations', c_loc(o), &
        c_loc(o%max_evaluations))
    call field('pagani_options.max_iterations', c_loc(o), &
        c_loc(o%max_iterations))
    call field('pagani_options.flags', c_loc(o), c_loc(o%flags))
    call field('pagani_options.seed', c_loc(o), c_loc(o%seed))
    call field('pagani_options.rule_degree', c_loc(o), c_loc(o%rule_degree))
    call field('pagani_options.initial_splits', c_loc(o), &
        c_loc(o%initial_splits))
    call field('pagani_options.vegas_calls', c_loc(o), c_loc(o%vegas_calls))
    call field('pagani_options.vegas_adjust_iterations', c_loc(o), &
        c_loc(o%vegas_adjust_iterations))
    call field('pagani_options.vegas_bins', c_loc(o), c_loc(o%vegas_bins))
    call field('pagani_options.vegas_alpha', c_loc(o), c_loc(o%vegas_alpha))
    call field('pagani_options.vegas_beta', c_loc(o), c_loc(o%vegas_beta))
    call field('pagani_options.chi2_max', c_loc(o), c_loc(o%chi2_max))
    call field('pagani_options.qmc_shifts', c_loc(o), c_loc(o%qmc_shifts))
    call field('pagani_options.qmc_initial_points', c_loc(o), &
        c_loc(o%qmc_initial_points))
    call field('pagani_options.qmc_transform', c_loc(o), &
        c_loc(o%qmc_transform))
    call field('pagani_options.progress', c_loc(o), c_loc(o%progress))
    call field('pagani_options.progress_data', c_loc(o), &
        c_loc(o%progress_data))
    call field('pagani_options.norm', c_loc(o), c_loc(o%norm))
    call field('pagani_options.domain_scale', c_loc(o), &
        c_loc(o%domain_scale))
    call field('pagani_options.breaks', c_loc(o), c_loc(o%breaks))
    call field('pagani_options.break_counts', c_loc(o), &
        c_loc(o%break_counts))
    call field('pagani_options.domain_map', c_loc(o), c_loc(o%domain_map))
    call field('pagani_options.domain_centers', c_loc(o), &
        c_loc(o%domain_centers))
    call field('pagani_options.domain_scales', c_loc(o), &
        c_loc(o%domain_scales))
    call field('pagani_options.state_path', c_loc(o), c_loc(o%state_path))
    call field('pagani_options.state_interval', c_loc(o), &
        c_loc(o%state_interval))
    call field('pagani_options.strategy', c_loc(o), c_loc(o%strategy))
    call field('pagani_options.vegas_grid_in', c_loc(o), &
        c_loc(o%vegas_grid_in))
    call field('pagani_options.vegas_grid_out', c_loc(o), &
        c_loc(o%vegas_grid_out))
    call field('pagani_options.batch_warm_stride', c_loc(o), &
        c_loc(o%batch_warm_stride))

    call size('pagani_result', c_sizeof(r))
    call field('pagani_result.value', c_loc(r), c_loc(r%value))
    call field('pagani_result.error', c_loc(r), c_loc(r%error))
    call field('pagani_result.status', c_loc(r), c_loc(r%status))
    call field('pagani_result.evaluations', c_loc(r), c_loc(r%evaluations))
    call field('pagani_result.regions', c_loc(r), c_loc(r%regions))
    call field('pagani_result.iterations', c_loc(r), c_loc(r%iterations))
    call field('pagani_result.chi2_dof', c_loc(r), c_loc(r%chi2_dof))
    call field('pagani_result.method', c_loc(r), c_loc(r%method))
    call field('pagani_result.backend', c_loc(r), c_loc(r%backend))
    call field('pagani_result.rule_degree', c_loc(r), c_loc(r%rule_degree))
    call field('pagani_result.seconds', c_loc(r), c_loc(r%seconds))
    call field('pagani_result.by_epsabs', c_loc(r), c_loc(r%by_epsabs))
    call field('pagani_result.auto_reason', c_loc(r), c_loc(r%auto_reason))

contains

    ! "sizeof NAME BYTES"
    subroutine size(name, bytes)
        character(len=*), intent(in) :: name
        integer(c_size_t), intent(in) :: bytes

        write (*, '(a, a, a, i0)') 'sizeof ', name, ' ', bytes
    end subroutine

    ! "offset NAME BYTES": the distance from the struct to its field.
    subroutine field(name, struct, member)
        character(len=*), intent(in) :: name
        type(c_ptr), intent(in) :: struct, member

        write (*, '(a, a, a, i0)') 'offset ', name, ' ', &
            transfer(member, 0_c_intptr_t) - transfer(struct, 0_c_intptr_t)
    end subroutine
end program
