"""Every exception class from real bad input."""

import pytest

import pagani


def test_misspelt_function_names_its_line(cpu):
    with pytest.raises(pagani.CompileError) as e:
        pagani.integrate("double s = x[0];\nreturn sinn(s);", [0], [1],
                         context=cpu)
    assert e.value.code == 7 and e.value.lines == [2]
    assert "sinn" in e.value.message


def test_missing_return(cpu):
    with pytest.raises(pagani.CompileError) as e:
        pagani.integrate("double s = x[0];\nif (s > 0.5) return s;", [0],
                         [1], context=cpu)
    assert "control reaches end of non-void function" in e.value.message


def test_param_past_the_block(cpu):
    with pytest.raises(pagani.ParamsError) as e:
        pagani.integrate("p[0] + p[1]*x[0]", [0], [1], params=[1.0],
                         context=cpu)
    assert e.value.code == 14 and "p[1]" in e.value.message


def test_nan_returned(cpu):
    with pytest.raises(pagani.NonFiniteError) as e:
        pagani.integrate("x[0] > 0.5 ? NAN : 1.0", [0], [1], context=cpu)
    assert e.value.code == 8


def test_both_tolerances_zero(cpu):
    with pytest.raises(pagani.OptionError) as e:
        pagani.integrate("x[0]", [0], [1], epsrel=0, epsabs=0, context=cpu)
    assert e.value.code == 4 and "both 0" in e.value.message
    assert isinstance(e.value, ValueError)


def test_box_of_the_wrong_length(cpu):
    with pytest.raises(pagani.BoundsError, match="one length"):
        pagani.integrate("x[0]", [0, 0], [1], context=cpu)


def test_empty_box_from_the_library(cpu):
    with pytest.raises(pagani.BoundsError) as e:
        pagani.integrate("x[0]", [0, 1], [1, 1], context=cpu)
    assert e.value.code == 3


def test_bad_option_value(cpu):
    with pytest.raises(pagani.OptionError) as e:
        pagani.integrate("x[0]", [0], [1], rule=8, context=cpu)
    assert "rule_degree" in e.value.message


def test_unknown_keyword_is_type_error(cpu):
    with pytest.raises(TypeError, match="vegas_cals"):
        pagani.integrate("x[0]", [0], [1], vegas_cals=1e5, context=cpu)


def test_bad_method_name():
    with pytest.raises(ValueError, match="method"):
        pagani.integrate("x[0]", [0], [1], method="romberg")


def test_callable_on_cuda_has_no_form():
    try:
        ctx = pagani.Context("cuda")
    except pagani.BackendUnavailableError:
        pytest.skip("no usable GPU")
    with ctx, pytest.raises(pagani.PaganiError) as e:
        pagani.integrate(lambda x: x[:, 0], [0], [1], context=ctx)
    assert e.value.code == 6


def test_closed_context():
    ctx = pagani.Context("cpu")
    ctx.close()
    with pytest.raises(pagani.PaganiError, match="closed"):
        pagani.integrate("x[0]", [0], [1], context=ctx)
