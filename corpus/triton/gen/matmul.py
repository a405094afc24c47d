"""Matrix-multiplication kernels (Triton): fp16, tf32, fp32 (ieee), bf16 with a fused
epilogue, batched, L2-grouped ordering with autotuning, persistent, split-K with atomics,
fp8 (e4m3), int8, and a grouped GEMM over a list of problems."""
import torch
import triton
import triton.language as tl

from common import DEV, all_close, case, close, run_all

torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = False
NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count


@triton.jit
def _tile_ids(pid, M, N, BM: tl.constexpr, BN: tl.constexpr, GROUP_M: tl.constexpr):
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    per_group = GROUP_M * num_pid_n
    gid = pid // per_group
    first_m = gid * GROUP_M
    gsize = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % gsize
    pid_n = (pid % per_group) // gsize
    return pid_m, pid_n


@triton.jit
def matmul_kernel(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                  PRECISION: tl.constexpr):
    pid = tl.program_id(0)
    pid_m, pid_n = _tile_ids(pid, M, N, BM, BN, GROUP_M)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * sam + rk[None, :] * sak
    b_ptrs = B + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptrs, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = acc.to(C.dtype.element_ty)
    tl.store(C + rm[:, None] * scm + rn[None, :] * scn, c, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _mm(a, b, out_dtype, BM, BN, BK, precision="tf32", warps=4, stages=3, b_is_nk=False):
    M, K = a.shape
    if b_is_nk:
        N = b.shape[0]
        sbk, sbn = b.stride(1), b.stride(0)
    else:
        N = b.shape[1]
        sbk, sbn = b.stride(0), b.stride(1)
    c = torch.empty(M, N, device=DEV, dtype=out_dtype)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), sbk, sbn, c.stride(0), c.stride(1),
                        BM=BM, BN=BN, BK=BK, GROUP_M=8, PRECISION=precision, num_warps=warps,
                        num_stages=stages)
    return c


@case("matmul_fp16")
def t_mm_fp16():
    a = torch.randn(384, 320, device=DEV, dtype=torch.float16)
    b = torch.randn(320, 512, device=DEV, dtype=torch.float16)
    c = _mm(a, b, torch.float16, 128, 128, 64, warps=8, stages=3)
    return close(c, a.float() @ b.float(), 0.1, 1e-2)


@case("matmul_fp16_small_tiles")
def t_mm_fp16_small():
    a = torch.randn(200, 136, device=DEV, dtype=torch.float16)
    b = torch.randn(136, 72, device=DEV, dtype=torch.float16)
    c = _mm(a, b, torch.float32, 32, 32, 32, warps=2, stages=2)
    return close(c, a.float() @ b.float(), 2e-2, 1e-3)


@case("matmul_tf32")
def t_mm_tf32():
    a = torch.randn(256, 256, device=DEV)
    b = torch.randn(256, 384, device=DEV)
    c = _mm(a, b, torch.float32, 128, 64, 32, precision="tf32", warps=4, stages=3)
    return close(c, a.double() @ b.double(), 0.15, 1e-2)


@case("matmul_fp32_ieee")
def t_mm_ieee():
    a = torch.randn(192, 160, device=DEV)
    b = torch.randn(160, 96, device=DEV)
    c = _mm(a, b, torch.float32, 64, 32, 32, precision="ieee", warps=4, stages=2)
    return close(c, a.double() @ b.double(), 1e-3, 1e-5)


@case("matmul_tf32x3")
def t_mm_tf32x3():
    a = torch.randn(128, 256, device=DEV)
    b = torch.randn(256, 128, device=DEV)
    c = _mm(a, b, torch.float32, 64, 64, 32, precision="tf32x3", warps=4, stages=2)
    return close(c, a.double() @ b.double(), 1e-3, 1e-4)


# ---------------------------------------------------------------- autotuned, fused bias + activation
@triton.autotune(
    configs=[
        triton.Config({"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8}, num_stages=3, num_warps=8),
        triton.Config({"BM": 64, "BN": 128, "BK": 32, "GROUP_M": 4}, num_stages=4, num_warps=4),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def matmul_bias_act_kernel(A, B, Bias, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                           ACT: tl.constexpr):
    pid = tl.program_id(0)
    pid_m, pid_n = _tile_ids(pid, M, N, BM, BN, GROUP_M)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rm_c = tl.max_contiguous(tl.multiple_of(tl.where(rm < M, rm, 0), BM), BM)
    rn_c = tl.max_contiguous(tl.multiple_of(tl.where(rn < N, rn, 0), BN), BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm_c[:, None] * sam + rk[None, :] * sak
    b_ptrs = B + rk[:, None] * sbk + rn_c[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    bias = tl.load(Bias + rn, mask=rn < N, other=0.0).to(tl.float32)
    acc = acc + bias[None, :]
    if ACT == "leaky_relu":
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    elif ACT == "gelu":
        acc = 0.5 * acc * (1 + tl.math.erf(acc * 0.7071067811865476))
    tl.store(C + rm[:, None] * scm + rn[None, :] * scn, acc.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _mm_bias_act(act):
    M, N, K = 512, 384, 256
    a = torch.randn(M, K, device=DEV, dtype=torch.bfloat16)
    b = torch.randn(K, N, device=DEV, dtype=torch.bfloat16) / 16
    bias = torch.randn(N, device=DEV, dtype=torch.bfloat16)
    c = torch.empty(M, N, device=DEV, dtype=torch.bfloat16)
    grid = lambda META: (triton.cdiv(M, META["BM"]) * triton.cdiv(N, META["BN"]),)
    matmul_bias_act_kernel[grid](a, b, bias, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                 c.stride(0), c.stride(1), ACT=act)
    ref = a.float() @ b.float() + bias.float()
    ref = torch.nn.functional.leaky_relu(ref, 0.01) if act == "leaky_relu" else torch.nn.functional.gelu(ref)
    return close(c, ref, 3e-2, 2e-2)


@case("matmul_bf16_bias_leakyrelu_autotuned")
def t_mm_lrelu():
    return _mm_bias_act("leaky_relu")


@case("matmul_bf16_bias_gelu_autotuned")
def t_mm_gelu():
    return _mm_bias_act("gelu")


# ---------------------------------------------------------------- batched
@triton.jit
def bmm_kernel(A, B, C, M, N, K, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    z = tl.program_id(2)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    A += z.to(tl.int64) * sab
    B += z.to(tl.int64) * sbb
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(A + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.)
        b = tl.load(B + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.)
        acc += tl.dot(a, b)
    tl.store(C + z.to(tl.int64) * scb + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@case("bmm_fp16")
def t_bmm():
    Z, M, N, K = 6, 100, 130, 96
    a = torch.randn(Z, M, K, device=DEV, dtype=torch.float16)
    b = torch.randn(Z, K, N, device=DEV, dtype=torch.float16)
    c = torch.empty(Z, M, N, device=DEV, dtype=torch.float16)
    bmm_kernel[(triton.cdiv(M, 64), triton.cdiv(N, 64), Z)](
        a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(), BM=64, BN=64, BK=32, num_warps=4)
    return close(c, a.float() @ b.float(), 5e-2, 1e-2)


# ---------------------------------------------------------------- persistent
@triton.jit
def matmul_persistent_kernel(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                             NUM_SMS: tl.constexpr):
    start = tl.program_id(0)
    num_tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    rk = tl.arange(0, BK)
    for tile in tl.range(start, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _tile_ids(tile, M, N, BM, BN, GROUP_M)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rm_c = tl.where(rm < M, rm, 0)
        rn_c = tl.where(rn < N, rn, 0)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            kk = ki * BK + rk
            a = tl.load(A + rm_c[:, None] * sam + kk[None, :] * sak, mask=kk[None, :] < K, other=0.0)
            b = tl.load(B + kk[:, None] * sbk + rn_c[None, :] * sbn, mask=kk[:, None] < K, other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(C + rm[:, None] * scm + rn[None, :] * scn, acc.to(C.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


@case("matmul_persistent_fp16")
def t_mm_persistent():
    M, N, K = 1024, 768, 512
    a = torch.randn(M, K, device=DEV, dtype=torch.float16)
    b = torch.randn(K, N, device=DEV, dtype=torch.float16)
    c = torch.empty(M, N, device=DEV, dtype=torch.float16)
    BM, BN = 128, 128
    grid = (min(NUM_SMS, triton.cdiv(M, BM) * triton.cdiv(N, BN)),)
    matmul_persistent_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                   c.stride(0), c.stride(1), BM=BM, BN=BN, BK=64, GROUP_M=8,
                                   NUM_SMS=grid[0], num_warps=8, num_stages=3)
    return close(c, a.float() @ b.float(), 0.1, 1e-2)


# ---------------------------------------------------------------- split-K with atomic_add
@triton.jit
def matmul_splitk_kernel(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BN)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK * SPLIT_K):
        kk = k0 + rk
        a = tl.load(A + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.)
        b = tl.load(B + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.)
        acc = tl.dot(a, b, acc)
    tl.atomic_add(C + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@case("matmul_splitk_atomic_add")
def t_splitk():
    M, N, K = 128, 192, 4096
    a = torch.randn(M, K, device=DEV, dtype=torch.float16)
    b = torch.randn(K, N, device=DEV, dtype=torch.float16)
    c = torch.zeros(M, N, device=DEV, dtype=torch.float32)
    SPLIT_K = 8
    matmul_splitk_kernel[(triton.cdiv(M, 64) * triton.cdiv(N, 64), SPLIT_K)](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        BM=64, BN=64, BK=64, SPLIT_K=SPLIT_K, num_warps=4, num_stages=3)
    return close(c, a.float() @ b.float(), 5e-2, 1e-3)


# ---------------------------------------------------------------- fp8 (e4m3) and int8
@case("matmul_fp8e4nv")
def t_mm_fp8():
    M, N, K = 256, 256, 512
    a = (torch.randn(M, K, device=DEV) * 2).to(torch.float8_e4m3fn)
    bt = (torch.randn(N, K, device=DEV) * 2).to(torch.float8_e4m3fn)   # B stored N x K (K-major)
    c = _mm(a, bt, torch.float16, 128, 128, 64, warps=8, stages=3, b_is_nk=True)
    return close(c, a.float() @ bt.float().t(), 0.5, 1e-2)


@case("matmul_fp8e5")
def t_mm_fp8e5():
    M, N, K = 128, 128, 256
    a = torch.randn(M, K, device=DEV).to(torch.float8_e5m2)
    bt = torch.randn(N, K, device=DEV).to(torch.float8_e5m2)
    c = _mm(a, bt, torch.float32, 64, 64, 64, warps=4, stages=3, b_is_nk=True)
    return close(c, a.float() @ bt.float().t(), 0.1, 1e-2)


@triton.jit
def matmul_int8_kernel(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(A + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        b = tl.load(B + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(C + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@case("matmul_int8")
def t_mm_int8():
    M, N, K = 256, 128, 512
    a = torch.randint(-127, 128, (M, K), device=DEV, dtype=torch.int8)
    bt = torch.randint(-127, 128, (N, K), device=DEV, dtype=torch.int8)
    c = torch.empty(M, N, device=DEV, dtype=torch.int32)
    matmul_int8_kernel[(triton.cdiv(M, 64), triton.cdiv(N, 64))](
        a, bt, c, M, N, K, a.stride(0), a.stride(1), bt.stride(1), bt.stride(0), c.stride(0), c.stride(1),
        BM=64, BN=64, BK=64, num_warps=4, num_stages=3)
    ref = (a.double() @ bt.double().t())
    return bool(torch.equal(c.double(), ref)), "exact"


# ---------------------------------------------------------------- grouped GEMM over a list of problems
@triton.jit
def grouped_gemm_kernel(group_a, group_b, group_c, group_sizes, group_ld, group_count,
                        NUM_SM: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    last = 0
    for g in range(group_count):
        gm = tl.load(group_sizes + g * 3)
        gn = tl.load(group_sizes + g * 3 + 1)
        gk = tl.load(group_sizes + g * 3 + 2)
        tiles_m = tl.cdiv(gm, BM)
        tiles_n = tl.cdiv(gn, BN)
        ntiles = tiles_m * tiles_n
        while tile >= last and tile < last + ntiles:
            lda = tl.load(group_ld + g * 3)
            ldb = tl.load(group_ld + g * 3 + 1)
            ldc = tl.load(group_ld + g * 3 + 2)
            a_ptr = tl.load(group_a + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c + g).to(tl.pointer_type(tl.float16))
            t = tile - last
            tm = t // tiles_n
            tn = t % tiles_n
            rm = tm * BM + tl.arange(0, BM)
            rn = tn * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), tl.float32)
            for k0 in range(0, gk, BK):
                kk = k0 + rk
                a = tl.load(a_ptr + rm[:, None] * lda + kk[None, :], mask=(rm[:, None] < gm) & (kk[None, :] < gk), other=0.)
                b = tl.load(b_ptr + kk[:, None] * ldb + rn[None, :], mask=(kk[:, None] < gk) & (rn[None, :] < gn), other=0.)
                acc += tl.dot(a, b)
            tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], acc.to(tl.float16),
                     mask=(rm[:, None] < gm) & (rn[None, :] < gn))
            tile += NUM_SM
        last = last + ntiles


@case("grouped_gemm_problem_list")
def t_grouped():
    shapes = [(256, 128, 64), (96, 200, 128), (512, 64, 256), (64, 64, 32)]
    As, Bs, Cs = [], [], []
    for (m, n, k) in shapes:
        As.append(torch.randn(m, k, device=DEV, dtype=torch.float16))
        Bs.append(torch.randn(k, n, device=DEV, dtype=torch.float16))
        Cs.append(torch.empty(m, n, device=DEV, dtype=torch.float16))
    ga = torch.tensor([x.data_ptr() for x in As], device=DEV, dtype=torch.int64)
    gb = torch.tensor([x.data_ptr() for x in Bs], device=DEV, dtype=torch.int64)
    gc = torch.tensor([x.data_ptr() for x in Cs], device=DEV, dtype=torch.int64)
    sizes = torch.tensor([v for s in shapes for v in s], device=DEV, dtype=torch.int32)
    lds = torch.tensor([v for (m, n, k) in shapes for v in (k, n, n)], device=DEV, dtype=torch.int32)
    NUM_SM = 16
    grouped_gemm_kernel[(NUM_SM,)](ga, gb, gc, sizes, lds, len(shapes), NUM_SM=NUM_SM, BM=64, BN=64, BK=32,
                                   num_warps=4)
    return all_close([(c, a.float() @ b.float(), 5e-2, 1e-2, "g%d" % i) for i, (a, b, c) in enumerate(zip(As, Bs, Cs))])


if __name__ == "__main__":
    import sys
    run_all("matmul", sys.argv[1:] or None)
