"""Gluon kernels (triton.experimental.gluon): explicit layouts, a row reduction, TMA with an
mbarrier, and a wgmma (warpgroup_mma) matmul fed by TMA (sm_90)."""
import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
from triton.experimental.gluon.language.nvidia.hopper import (tma, mbarrier, fence_async_shared,
                                                              warpgroup_mma, warpgroup_mma_wait)

from common import DEV, case, close, run_all

torch.manual_seed(0)


@gluon.jit
def gluon_axpy_kernel(X, Y, Out, alpha, n, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4],
                                            order=[0])
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=layout)
    mask = offs < n
    x = gl.load(X + offs, mask=mask)
    y = gl.load(Y + offs, mask=mask)
    gl.store(Out + offs, alpha * x + y, mask=mask)


@case("gluon_axpy_blocked_layout")
def t_axpy():
    n = 100_003
    x = torch.randn(n, device=DEV)
    y = torch.randn(n, device=DEV)
    o = torch.empty_like(x)
    gluon_axpy_kernel[(triton.cdiv(n, 2048),)](x, y, o, 1.5, n, BLOCK=2048, num_warps=4)
    return close(o, 1.5 * x + y, 1e-6, 1e-6)


@gluon.jit
def gluon_rowsum_kernel(X, Out, M, N, BM: gl.constexpr, BN: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    offs_m = gl.program_id(0) * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, layout))
    offs_n = gl.arange(0, BN, layout=gl.SliceLayout(0, layout))
    acc = gl.zeros([BM], gl.float32, layout=gl.SliceLayout(1, layout))
    for n0 in range(0, N, BN):
        cols = n0 + offs_n
        mask = (offs_m[:, None] < M) & (cols[None, :] < N)
        x = gl.load(X + offs_m[:, None] * N + cols[None, :], mask=mask, other=0.0)
        acc += gl.sum(x.to(gl.float32), axis=1)
    gl.store(Out + offs_m, acc, mask=offs_m < M)


@case("gluon_rowsum_slice_layout")
def t_rowsum():
    x = torch.randn(1000, 700, device=DEV, dtype=torch.float16)
    o = torch.empty(1000, device=DEV)
    gluon_rowsum_kernel[(triton.cdiv(1000, 16),)](x, o, 1000, 700, BM=16, BN=64, num_warps=4)
    return close(o, x.float().sum(1), 1e-3, 1e-4)


@gluon.jit
def gluon_tma_scale_add_kernel(a_desc, b_desc, c_desc):
    BM: gl.constexpr = a_desc.block_type.shape[0]
    BN: gl.constexpr = a_desc.block_type.shape[1]
    layout: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    off_m = gl.program_id(0) * BM
    off_n = gl.program_id(1) * BN
    a_s = gl.allocate_shared_memory(a_desc.dtype, [BM, BN], a_desc.layout)
    b_s = gl.allocate_shared_memory(b_desc.dtype, [BM, BN], b_desc.layout)
    c_s = gl.allocate_shared_memory(c_desc.dtype, [BM, BN], c_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(a_desc, [off_m, off_n], bar, a_s)
    tma.async_copy_global_to_shared(b_desc, [off_m, off_n], bar, b_s)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    a = a_s.load(layout)
    b = b_s.load(layout)
    c_s.store(a * 3.0 - b)
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc, [off_m, off_n], c_s)
    tma.store_wait(pendings=0)


@case("gluon_tma_mbarrier_elementwise")
def t_tma():
    M, N = 500, 384
    BM, BN = 32, 64
    a = torch.randn(M, N, device=DEV)
    b = torch.randn(M, N, device=DEV)
    c = torch.empty_like(a)
    lay = gl.NVMMASharedLayout.get_default_for([BM, BN], gl.float32)
    ad = TensorDescriptor(a, a.shape, a.stride(), [BM, BN], lay)
    bd = TensorDescriptor(b, b.shape, b.stride(), [BM, BN], lay)
    cd = TensorDescriptor(c, c.shape, c.stride(), [BM, BN], lay)
    gluon_tma_scale_add_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](ad, bd, cd, num_warps=4)
    return close(c, 3 * a - b, 1e-5, 1e-6)


@gluon.jit
def gluon_wgmma_matmul_kernel(a_desc, b_desc, c_desc, ASYNC: gl.constexpr, num_warps: gl.constexpr):
    BM: gl.constexpr = c_desc.block_type.shape[0]
    BN: gl.constexpr = c_desc.block_type.shape[1]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    K = a_desc.shape[1]
    a_s = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b_s = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    off_m = gl.program_id(0) * BM
    off_n = gl.program_id(1) * BN
    mma_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1],
                                                         instr_shape=[16, BN, 16])
    acc = gl.zeros((BM, BN), dtype=gl.float32, layout=mma_layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    phase = 0
    for k in range(0, K, BK):
        mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc, [off_m, k], bar, a_s)
        tma.async_copy_global_to_shared(b_desc, [k, off_n], bar, b_s)
        mbarrier.wait(bar, phase=phase)
        phase ^= 1
        if ASYNC:
            acc = warpgroup_mma(a_s, b_s, acc, is_async=True)
            acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        else:
            acc = warpgroup_mma(a_s, b_s, acc)
    mbarrier.invalidate(bar)
    c_s = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_s.store(acc)
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc, [off_m, off_n], c_s)
    tma.store_wait(pendings=0)


def _wgmma(async_):
    M, N, K = 256, 256, 384
    BM, BN, BK = 128, 128, 64
    A = torch.randn(M, K, device=DEV, dtype=torch.float16)
    B = torch.randn(K, N, device=DEV, dtype=torch.float16)
    C = torch.empty(M, N, device=DEV, dtype=torch.float32)
    ad = TensorDescriptor(A, A.shape, A.stride(), [BM, BK], gl.NVMMASharedLayout.get_default_for([BM, BK], gl.float16))
    bd = TensorDescriptor(B, B.shape, B.stride(), [BK, BN], gl.NVMMASharedLayout.get_default_for([BK, BN], gl.float16))
    cd = TensorDescriptor(C, C.shape, C.stride(), [BM, BN], gl.NVMMASharedLayout.get_default_for([BM, BN], gl.float32))
    gluon_wgmma_matmul_kernel[(M // BM, N // BN)](ad, bd, cd, async_, num_warps=4)
    return close(C, A.float() @ B.float(), 5e-2, 1e-3)


@case("gluon_wgmma_tma_matmul")
def t_wgmma():
    return _wgmma(False)


@case("gluon_wgmma_async_tma_matmul")
def t_wgmma_async():
    return _wgmma(True)


if __name__ == "__main__":
    import sys
    run_all("gluon", sys.argv[1:] or None)
