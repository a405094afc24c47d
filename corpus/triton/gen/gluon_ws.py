"""Gluon warp specialization (gl.warp_specialize) on sm_90: two partitions that split the work,
and a TMA producer warp feeding a consumer warpgroup through an mbarrier ring. Both the newer
call form gl.warp_specialize([(fn, args), ...], warps, regs) and the older
gl.warp_specialize(default_args, default_fn, worker_args, [fns], warps, regs) are tried."""
import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier

from common import DEV, case, close, run_all

torch.manual_seed(0)


@gluon.jit
def _split_half(X, Y, n, BLOCK: gl.constexpr, WHICH: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    offs = gl.program_id(0) * (2 * BLOCK) + WHICH * BLOCK + gl.arange(0, BLOCK, layout=layout)
    m = offs < n
    x = gl.load(X + offs, mask=m)
    gl.store(Y + offs, x * x + 1.0, mask=m)


@gluon.jit
def _split_default(X, Y, n, BLOCK: gl.constexpr):
    _split_half(X, Y, n, BLOCK, 0)


@gluon.jit
def _split_worker(X, Y, n, BLOCK: gl.constexpr):
    _split_half(X, Y, n, BLOCK, 1)


@gluon.jit
def gluon_ws_split_kernel(X, Y, n, BLOCK: gl.constexpr):
    gl.warp_specialize([(_split_default, (X, Y, n, BLOCK)), (_split_worker, (X, Y, n, BLOCK))], [4], [96])


@gluon.jit
def gluon_ws_split_kernel_old_api(X, Y, n, BLOCK: gl.constexpr):
    gl.warp_specialize((X, Y, n, BLOCK), _split_default, (X, Y, n, BLOCK), [_split_worker], [4], [96])


@case("gluon_warp_specialize_split")
def t_split():
    n = 1 << 20
    x = torch.randn(n, device=DEV)
    y = torch.empty_like(x)
    grid = (triton.cdiv(n, 2 * 1024),)
    try:
        gluon_ws_split_kernel[grid](x, y, n, BLOCK=1024, num_warps=4)
        api = "list form"
    except Exception as e:  # noqa: BLE001
        print("list form failed:", repr(e)[:500], flush=True)
        gluon_ws_split_kernel_old_api[grid](x, y, n, BLOCK=1024, num_warps=4)
        api = "old form"
    ok, d = close(y, x * x + 1, 1e-6, 1e-6)
    return ok, api + "; " + d


@gluon.jit
def _pc_consumer(bufs, ready, empty, Y, t0, T, BM: gl.constexpr, BN: gl.constexpr, S: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    rows = gl.arange(0, BM, layout=gl.SliceLayout(1, layout))
    cols = gl.arange(0, BN, layout=gl.SliceLayout(0, layout))
    for i in range(T):
        s = i % S
        mbarrier.wait(ready.index(s), (i // S) & 1)
        x = bufs.index(s).load(layout)
        mbarrier.arrive(empty.index(s), count=1)
        r = (t0 + i) * BM + rows
        gl.store(Y + r[:, None] * BN + cols[None, :], x * 2.0 + 1.0)


@gluon.jit
def _pc_producer(x_desc, bufs, ready, empty, t0, T, BM: gl.constexpr, S: gl.constexpr):
    for i in range(T):
        s = i % S
        mbarrier.wait(empty.index(s), ((i // S) & 1) ^ 1)
        mbarrier.expect(ready.index(s), x_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(x_desc, [(t0 + i) * BM, 0], ready.index(s), bufs.index(s))


@gluon.jit
def _pc_setup(x_desc, S: gl.constexpr):
    BM: gl.constexpr = x_desc.block_type.shape[0]
    BN: gl.constexpr = x_desc.block_type.shape[1]
    bufs = gl.allocate_shared_memory(x_desc.dtype, [S, BM, BN], x_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [S, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [S, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(S):
        mbarrier.init(ready.index(i), count=1)
        mbarrier.init(empty.index(i), count=1)
    return bufs, ready, empty


@gluon.jit
def gluon_ws_tma_ring_kernel(x_desc, Y, T, S: gl.constexpr):
    BM: gl.constexpr = x_desc.block_type.shape[0]
    BN: gl.constexpr = x_desc.block_type.shape[1]
    bufs, ready, empty = _pc_setup(x_desc, S)
    t0 = gl.program_id(0) * T
    gl.warp_specialize([(_pc_consumer, (bufs, ready, empty, Y, t0, T, BM, BN, S)),
                        (_pc_producer, (x_desc, bufs, ready, empty, t0, T, BM, S))], [1], [24])


@gluon.jit
def gluon_ws_tma_ring_kernel_old_api(x_desc, Y, T, S: gl.constexpr):
    BM: gl.constexpr = x_desc.block_type.shape[0]
    BN: gl.constexpr = x_desc.block_type.shape[1]
    bufs, ready, empty = _pc_setup(x_desc, S)
    t0 = gl.program_id(0) * T
    gl.warp_specialize((bufs, ready, empty, Y, t0, T, BM, BN, S), _pc_consumer,
                       (x_desc, bufs, ready, empty, t0, T, BM, S), [_pc_producer], [1], [24])


@case("gluon_warp_specialize_tma_mbarrier_ring")
def t_ring():
    BM, BN, T, P = 32, 64, 16, 8
    x = torch.randn(BM * T * P, BN, device=DEV)
    y = torch.empty_like(x)
    lay = gl.NVMMASharedLayout.get_default_for([BM, BN], gl.float32)
    xd = TensorDescriptor(x, x.shape, x.stride(), [BM, BN], lay)
    try:
        gluon_ws_tma_ring_kernel[(P,)](xd, y, T, S=3, num_warps=4)
        api = "list form"
    except Exception as e:  # noqa: BLE001
        print("list form failed:", repr(e)[:500], flush=True)
        gluon_ws_tma_ring_kernel_old_api[(P,)](xd, y, T, S=3, num_warps=4)
        api = "old form"
    ok, d = close(y, 2 * x + 1, 1e-6, 1e-6)
    return ok, api + "; " + d


if __name__ == "__main__":
    import sys
    run_all("gluon_ws", sys.argv[1:] or None)
