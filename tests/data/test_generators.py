"""Generated data sets: the defining properties of waveform, LED and the synthetic networks."""

import numpy as np
import pytest

from bncbench.data.generators import LED_SEGMENTS, led, synth, waveform, waveform_bases
from bncbench.errors import UserError


def test_waveform_bases_are_the_three_triangles():
    h = waveform_bases()
    assert h.shape == (3, 21)
    assert [int(np.argmax(r)) + 1 for r in h] == [11, 15, 7]  # peaks at points 11, 15, 7
    assert h.max() == 6 and h.min() == 0
    assert (h[0] == np.roll(h[1], -4)).all() and (h[0] == np.roll(h[2], 4)).all()


def test_waveform_properties():
    ds = waveform(30000, seed=3)
    X = np.column_stack(ds.columns)
    assert X.shape == (30000, 21) and ds.n_classes == 3
    share = np.bincount(ds.y, minlength=3) / ds.y.size
    assert np.allclose(share, 1 / 3, atol=0.015)
    h = waveform_bases()
    pairs = [(0, 1), (0, 2), (1, 2)]
    for c, (a, b) in enumerate(pairs):
        # E[x] = (h_a + h_b) / 2 and residual noise variance 1 + Var(u)·(h_a − h_b)^2
        m = X[ds.y == c].mean(axis=0)
        assert np.allclose(m, (h[a] + h[b]) / 2, atol=0.1)
        v = X[ds.y == c].var(axis=0)
        assert np.allclose(v, 1 + (h[a] - h[b]) ** 2 / 12, rtol=0.1, atol=0.1)


def test_waveform_is_seeded():
    a, b = waveform(100, seed=1), waveform(100, seed=1)
    assert all((x == y).all() for x, y in zip(a.columns, b.columns))
    assert not (waveform(100, seed=2).columns[0] == a.columns[0]).all()


def test_led_properties():
    ds = led(20000, noise=0.1, seed=5)
    X = np.column_stack(ds.columns)
    assert X.shape == (20000, 7) and ds.n_classes == 10
    share = np.bincount(ds.y, minlength=10) / ds.y.size
    assert np.allclose(share, 0.1, atol=0.01)
    flipped = X != LED_SEGMENTS[ds.y]
    assert abs(flipped.mean() - 0.1) < 0.005
    assert len({tuple(r) for r in LED_SEGMENTS}) == 10
    assert (led(50, seed=1).y == led(50, seed=1).y).all()


def test_led_digits_match_the_display():
    # 8 lights every segment, 1 only the two right ones
    assert LED_SEGMENTS[8].sum() == 7
    assert LED_SEGMENTS[1].tolist() == [0, 0, 1, 0, 0, 1, 0]


def test_synth_shape_determinism_and_dependence():
    ds = synth("synth:20000x6x3:7")
    assert ds.n_instances == 20000 and ds.n_attributes == 6 and ds.n_classes == 3
    again = synth("synth:20000x6x3:7")
    assert all((a == b).all() for a, b in zip(ds.columns, again.columns))
    # the class is a parent of every attribute: each attribute carries information about it
    from bncbench.classifiers.kernels.counts import pair_counts
    from bncbench.classifiers.kernels.infotheory import mutual_info_class

    X = np.column_stack(ds.columns)
    pc = pair_counts(X, ds.y, X.max(axis=0) + 1, 3, pairs=False)
    assert (mutual_info_class(pc) > 0.001).all()


def test_synth_codes_take_a_byte_and_are_the_sample_they_were():
    """A synthetic attribute's codes are held in one byte each (a data set of millions of rows is
    held for a whole run), and the sample is the one int32 columns held before (the sha256 of its
    codes and classes as int32, recorded from the earlier generator)."""
    import hashlib

    ds = synth("synth:20000x6x3:7")
    assert all(c.dtype == np.int8 for c in ds.columns)
    X = np.column_stack(ds.columns).astype("<i4")
    digest = hashlib.sha256(X.tobytes() + ds.y.astype("<i4").tobytes()).hexdigest()
    assert digest == "0d84d42e7e106a06092bcf57e4747a7a2c1016fbe534ba457b855b71319c58d3"


@pytest.mark.parametrize("bad", ["synth:10x2", "synth:0x3x2", "synth:10x3x1", "synth:axbxc"])
def test_synth_bad_names(bad):
    with pytest.raises(UserError):
        synth(bad)
