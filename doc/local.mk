# doc: the library's manual pages (man3; pagani.1 lives with the command in
# src/cli), and the README and the examples, installed under $(docdir)
# (share/doc/libpagani) for the user who installed a tarball.
dist_man3_MANS = \
	doc/pagani.3 \
	doc/pagani_context_create.3 \
	doc/pagani_integrand_from_source.3 \
	doc/pagani_integrate.3 \
	doc/pagani_integrate_batch.3 \
	doc/pagani_qmc_part.3 \
	doc/pagani_integrate_gradient.3 \
	doc/pagani_strerror.3 \
	doc/pagani_vegas_grid_create.3
# The other calls' pages: one line each, `.so man3/PAGE.3`, the page that
# describes them (man's way of naming one page twice).
dist_man3_MANS += \
	doc/pagani_context_destroy.3 \
	doc/pagani_context_backend.3 \
	doc/pagani_context_set_threads.3 \
	doc/pagani_context_set_memory.3 \
	doc/pagani_context_message.3 \
	doc/pagani_context_request_stop.3 \
	doc/pagani_integrand_from_function.3 \
	doc/pagani_integrand_create.3 \
	doc/pagani_integrand_set_params.3 \
	doc/pagani_integrand_from_vector_source.3 \
	doc/pagani_integrand_from_vector_function.3 \
	doc/pagani_integrand_create_vector.3 \
	doc/pagani_integrand_components.3 \
	doc/pagani_integrand_destroy.3 \
	doc/pagani_integrate_vector.3 \
	doc/pagani_options_default.3 \
	doc/pagani_integrate_batch_vector.3 \
	doc/pagani_qmc_combine_parts.3 \
	doc/pagani_status_name.3 \
	doc/pagani_method_name.3 \
	doc/pagani_auto_reason_name.3 \
	doc/pagani_integrand_from_block_function.3 \
	doc/pagani_backend_name.3 \
	doc/pagani_version.3 \
	doc/pagani_integrand_gradient_from_source.3 \
	doc/pagani_integrand_gradient_from_function.3 \
	doc/pagani_integrate_limits_gradient.3 \
	doc/pagani_vegas_grid_destroy.3
dist_doc_DATA = README ChangeLog
docexamplesdir = $(docdir)/examples
dist_docexamples_DATA = \
	examples/gauss.c \
	examples/parameter_scan.c \
	examples/mpi_qmc.c \
	examples/ex.f90
