"""Tensor-descriptor (TMA) kernels (Triton, sm_90): host-side TensorDescriptor and device-side
tl.make_tensor_descriptor matmuls, a persistent TMA matmul, warp-specialized matmuls
(tl.range(..., warp_specialize=True)), an fp8 TMA matmul and a TMA elementwise kernel."""
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from common import DEV, case, close, run_all

torch.manual_seed(0)
NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count


def _alloc(size, alignment, stream):
    return torch.empty(size, device=DEV, dtype=torch.int8)


triton.set_allocator(_alloc)


@triton.jit
def _pid_mn(tile, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    per_group = GROUP_M * num_pid_n
    gid = tile // per_group
    first_m = gid * GROUP_M
    gsize = min(num_pid_m - first_m, GROUP_M)
    return first_m + (tile % per_group) % gsize, (tile % per_group) // gsize


@triton.jit
def tma_matmul_kernel(a_desc, b_desc, c_desc, M, N, K,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                      WARP_SPECIALIZE: tl.constexpr):
    # a: [M, K], b: [N, K] (K-major), c: [M, N]
    pid = tl.program_id(0)
    pid_m, pid_n = _pid_mn(pid, tl.cdiv(M, BM), tl.cdiv(N, BN), GROUP_M)
    off_m = pid_m * BM
    off_n = pid_n * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([off_m, k * BK])
        b = b_desc.load([off_n, k * BK])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


def _tma_mm(dtype_in, out_dtype, M, N, K, BM, BN, BK, ws, warps=4, stages=3):
    if dtype_in in (torch.float8_e4m3fn, torch.float8_e5m2):
        a = (torch.randn(M, K, device=DEV) * 2).to(dtype_in)
        b = (torch.randn(N, K, device=DEV) * 2).to(dtype_in)
    else:
        a = torch.randn(M, K, device=DEV, dtype=dtype_in)
        b = torch.randn(N, K, device=DEV, dtype=dtype_in)
    c = torch.empty(M, N, device=DEV, dtype=out_dtype)
    a_d = TensorDescriptor.from_tensor(a, [BM, BK])
    b_d = TensorDescriptor.from_tensor(b, [BN, BK])
    c_d = TensorDescriptor.from_tensor(c, [BM, BN])
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    tma_matmul_kernel[grid](a_d, b_d, c_d, M, N, K, BM=BM, BN=BN, BK=BK, GROUP_M=8,
                            WARP_SPECIALIZE=ws, num_warps=warps, num_stages=stages)
    return c, a.float() @ b.float().t()


@case("tma_matmul_fp16_host_descriptor")
def t_tma_fp16():
    c, ref = _tma_mm(torch.float16, torch.float16, 512, 384, 320, 128, 128, 64, False, warps=8)
    return close(c, ref, 0.1, 1e-2)


@case("tma_matmul_bf16_out_fp32")
def t_tma_bf16():
    c, ref = _tma_mm(torch.bfloat16, torch.float32, 256, 256, 256, 64, 128, 64, False, warps=4)
    return close(c, ref, 5e-2, 1e-2)


@case("tma_matmul_fp8e4nv")
def t_tma_fp8():
    c, ref = _tma_mm(torch.float8_e4m3fn, torch.float16, 256, 256, 512, 128, 128, 128, False, warps=8)
    return close(c, ref, 0.5, 1e-2)


@case("tma_matmul_warp_specialized")
def t_tma_ws():
    c, ref = _tma_mm(torch.float16, torch.float16, 512, 512, 512, 128, 128, 64, True, warps=4)
    return close(c, ref, 0.1, 1e-2)


@case("tma_matmul_warp_specialized_fp8")
def t_tma_ws_fp8():
    c, ref = _tma_mm(torch.float8_e4m3fn, torch.float16, 256, 256, 512, 128, 128, 128, True, warps=4)
    return close(c, ref, 0.5, 1e-2)


@case("tma_matmul_warp_specialized_8warps")
def t_tma_ws8():
    c, ref = _tma_mm(torch.float16, torch.float16, 512, 512, 512, 128, 128, 64, True, warps=8)
    return close(c, ref, 0.1, 1e-2)


@triton.jit
def tma_matmul_ws_ptr_store_kernel(a_desc, b_desc, C, M, N, K, scm,
                                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # warp-specialized main loop, epilogue through ordinary pointer stores
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([pid_n * BN, k * BK])
        acc = tl.dot(a, b.T, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(C + rm[:, None] * scm + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@case("tma_matmul_warp_specialized_ptr_epilogue")
def t_tma_ws_ptr():
    M, N, K = 512, 384, 512
    BM, BN, BK = 128, 128, 64
    a = torch.randn(M, K, device=DEV, dtype=torch.float16)
    b = torch.randn(N, K, device=DEV, dtype=torch.float16)
    c = torch.empty(M, N, device=DEV, dtype=torch.float16)
    tma_matmul_ws_ptr_store_kernel[(M // BM, N // BN)](
        TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]), c, M, N, K,
        c.stride(0), BM=BM, BN=BN, BK=BK, num_warps=4, num_stages=3)
    return close(c, a.float() @ b.float().t(), 0.1, 1e-2)


# ---------------------------------------------------------------- device-side descriptors
@triton.jit
def device_tma_matmul_kernel(A, B, C, M, N, K,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(A, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(B, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(C, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid = tl.program_id(0)
    pid_m, pid_n = _pid_mn(pid, tl.cdiv(M, BM), tl.cdiv(N, BN), GROUP_M)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([k * BK, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@case("tma_matmul_device_descriptor")
def t_tma_device():
    M, N, K = 384, 256, 192
    a = torch.randn(M, K, device=DEV, dtype=torch.float16)
    b = torch.randn(K, N, device=DEV, dtype=torch.float16)
    c = torch.empty(M, N, device=DEV, dtype=torch.float16)
    device_tma_matmul_kernel[(triton.cdiv(M, 128) * triton.cdiv(N, 128),)](
        a, b, c, M, N, K, BM=128, BN=128, BK=64, GROUP_M=8, num_warps=4, num_stages=3)
    return close(c, a.float() @ b.float(), 0.1, 1e-2)


# ---------------------------------------------------------------- persistent TMA matmul
@triton.jit
def tma_persistent_matmul_kernel(a_desc, b_desc, c_desc, M, N, K,
                                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                                 GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr,
                                 WARP_SPECIALIZE: tl.constexpr):
    start = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    for tile in tl.range(start, num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _pid_mn(tile, num_pid_m, num_pid_n, GROUP_M)
        off_m = pid_m * BM
        off_n = pid_n * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([off_m, ki * BK])
            b = b_desc.load([off_n, ki * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


def _tma_persistent(ws, flat):
    M, N, K = 1024, 1024, 512
    BM, BN, BK = 128, 128, 64
    a = torch.randn(M, K, device=DEV, dtype=torch.float16)
    b = torch.randn(N, K, device=DEV, dtype=torch.float16)
    c = torch.empty(M, N, device=DEV, dtype=torch.float16)
    a_d = TensorDescriptor.from_tensor(a, [BM, BK])
    b_d = TensorDescriptor.from_tensor(b, [BN, BK])
    c_d = TensorDescriptor.from_tensor(c, [BM, BN])
    grid = (min(NUM_SMS, triton.cdiv(M, BM) * triton.cdiv(N, BN)),)
    tma_persistent_matmul_kernel[grid](a_d, b_d, c_d, M, N, K, BM=BM, BN=BN, BK=BK, GROUP_M=8,
                                       NUM_SMS=grid[0], WARP_SPECIALIZE=ws, num_warps=8 if not ws else 4,
                                       num_stages=3)
    return close(c, a.float() @ b.float().t(), 0.1, 1e-2)


@case("tma_persistent_matmul")
def t_tma_persistent():
    return _tma_persistent(False, True)


@case("tma_persistent_matmul_warp_specialized")
def t_tma_persistent_ws():
    return _tma_persistent(True, True)


# ---------------------------------------------------------------- TMA elementwise
@triton.jit
def tma_add_kernel(x_desc, y_desc, o_desc, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = x_desc.load([pm * BM, pn * BN])
    y = y_desc.load([pm * BM, pn * BN])
    o_desc.store([pm * BM, pn * BN], x * 2.0 + y)


@case("tma_elementwise_2d")
def t_tma_add():
    M, N = 1000, 520
    x = torch.randn(M, N, device=DEV)
    y = torch.randn(M, N, device=DEV)
    o = torch.empty_like(x)
    BM, BN = 32, 64
    xd = TensorDescriptor.from_tensor(x, [BM, BN])
    yd = TensorDescriptor.from_tensor(y, [BM, BN])
    od = TensorDescriptor.from_tensor(o, [BM, BN])
    tma_add_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](xd, yd, od, BM=BM, BN=BN)
    return close(o, 2 * x + y, 1e-6, 0)


@triton.jit
def tma_device_copy_kernel(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    xd = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(Y, shape=[N, M], strides=[M, 1], block_shape=[BN, BM])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = xd.load([pm * BM, pn * BN])
    yd.store([pn * BN, pm * BM], tl.trans(t))


@case("tma_device_descriptor_transpose")
def t_tma_transpose():
    M, N = 512, 256
    x = torch.randn(M, N, device=DEV, dtype=torch.bfloat16)
    y = torch.empty(N, M, device=DEV, dtype=torch.bfloat16)
    tma_device_copy_kernel[(M // 64, N // 64)](x, y, M, N, BM=64, BN=64)
    return close(y, x.t(), 0, 0)


if __name__ == "__main__":
    import sys
    run_all("tma", sys.argv[1:] or None)
