"""The package's surface: docstrings, Error, and the validation check of conftest.py."""
import inspect
import os

import ampvk
import ampvk.pytest_plugin


def public_names():
    for name in ampvk.__all__:
        obj = getattr(ampvk, name)
        yield name, obj
        if inspect.isclass(obj):
            for m, v in vars(obj).items():
                if not m.startswith("_") and (callable(v) or isinstance(v, property)):
                    yield f"{name}.{m}", v
    for name in ("Golden", "GoldenFailure", "golden", "pytest_addoption"):
        yield f"pytest_plugin.{name}", getattr(ampvk.pytest_plugin, name)
    for m in ("check", "path"):
        yield f"Golden.{m}", getattr(ampvk.pytest_plugin.Golden, m)


def test_every_public_name_has_a_docstring():
    missing = [name for name, obj in public_names() if not (inspect.getdoc(obj) or "").strip()]
    assert missing == []
    assert len(list(public_names())) >= 40  # the walk finds them


def test_error_carries_status():
    try:
        ampvk.load("/nonexistent/file.png")
    except ampvk.Error as e:
        assert e.status == 10 and e.status_name == "AMP_ERROR_IO"
        assert "/nonexistent/file.png" in str(e)
        assert isinstance(e, Exception)
    else:
        raise AssertionError("no error")


def test_validation_messages_fail_a_test(pytester):
    # conftest.py's check, run on a test that pretends the layer spoke
    here = os.path.dirname(__file__)
    with open(os.path.join(here, "conftest.py")) as f:
        pytester.makeconftest(f.read())
    pytester.makepyfile(test_noisy='''
import ampvk
def test_noisy():
    n = ampvk.validation_message_count()
    ampvk.validation_message_count = lambda: n + 2
''')
    real = ampvk.validation_message_count
    try:
        r = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    finally:
        ampvk.validation_message_count = real
    r.assert_outcomes(passed=1, errors=1)
    assert "2 validation messages" in r.stdout.str()
