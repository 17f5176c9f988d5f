"""The package's tests: each fails on any Vulkan validation message (ctest runs them
with AMPVK_VALIDATION=1 on lavapipe), as tests/test.h fails the C tests."""
import os

import numpy as np
import pytest

import ampvk

pytest_plugins = ["pytester"]


def pytest_sessionstart(session):
    # under ctest the layer must be on, or the check below proves nothing
    if os.environ.get("AMPVK_VALIDATION") == "1":
        assert ampvk.default_accelerator().is_debug, "AMPVK_VALIDATION=1 but the validation layer is off"


@pytest.fixture(autouse=True)
def no_validation_messages():
    before = ampvk.validation_message_count()
    ampvk.log_messages(clear=True)
    yield
    for acc in ampvk.accelerators():
        if acc._view is not None:
            acc.wait()
    after = ampvk.validation_message_count()
    if after != before:
        messages = "\n".join(m for m in ampvk.log_messages() if m.startswith("validation"))
        pytest.fail(f"{after - before} validation messages:\n{messages}", pytrace=False)


@pytest.fixture
def rgb():
    """A 40 x 56 RGB uint8 image of noise over gradients (deterministic)."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:40, 0:56]
    base = np.stack([x * 4, y * 6, (x + y) * 2], axis=2)
    return np.clip(base + rng.integers(0, 40, base.shape), 0, 255).astype(np.uint8)
