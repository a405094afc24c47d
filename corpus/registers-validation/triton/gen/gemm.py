"""GEMM family for the validation set: a tiled matmul with a fused epilogue (bias, residual,
ReLU/GELU-tanh/SiLU) at many BLOCK_M/N/K, num_warps, num_stages, dtypes (fp16, bf16, fp32 as
tf32), transposed B and masked K tails; a two-kernel split-K GEMM (fp32 partials in a workspace,
then a reduction with bias); an MoE-style grouped GEMM over expert-sorted rows (plain and a
gated SwiGLU variant with two accumulators); an int8 GEMM with per-row/per-column dequant."""
import torch
import triton
import triton.language as tl

from harness import DEV, add, all_close, close, launch, run_all

torch.manual_seed(1234)
torch.backends.cuda.matmul.allow_tf32 = False


@triton.jit
def _act(x, ACT: tl.constexpr):
    if ACT == 1:
        x = tl.maximum(x, 0.0)
    elif ACT == 2:
        t = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        x = 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * t) - 1.0))
    elif ACT == 3:
        x = x * tl.sigmoid(x)
    return x


@triton.jit
def gemm_epilogue_kernel(A, B, C, Bias, R, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn, s_rm,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
                         EVEN_K: tl.constexpr, HAS_BIAS: tl.constexpr, HAS_RES: tl.constexpr,
                         ACT: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    pm, pn = tl.swizzle2d(pid // npn, pid % npn, npm, npn, GROUP)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BM), BM)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BN), BN)
    a_ptr = A + ram[:, None] * s_am + rk[None, :] * s_ak
    b_ptr = B + rk[:, None] * s_bk + rbn[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        if EVEN_K:
            a = tl.load(a_ptr)
            b = tl.load(b_ptr)
        else:
            a = tl.load(a_ptr, mask=rk[None, :] < K - k0, other=0.0)
            b = tl.load(b_ptr, mask=rk[:, None] < K - k0, other=0.0)
        acc += tl.dot(a, b)
        a_ptr += BK * s_ak
        b_ptr += BK * s_bk
    if HAS_BIAS:
        bias = tl.load(Bias + rn, mask=rn < N, other=0.0).to(tl.float32)
        acc += bias[None, :]
    acc = _act(acc, ACT)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    if HAS_RES:
        acc += tl.load(R + rm[:, None] * s_rm + rn[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(C + rm[:, None] * s_cm + rn[None, :] * s_cn, acc.to(C.dtype.element_ty), mask=mask)


def _ref_act(x, act):
    if act == 1:
        return torch.relu(x)
    if act == 2:
        return torch.nn.functional.gelu(x, approximate="tanh")
    if act == 3:
        return torch.nn.functional.silu(x)
    return x


DT = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
ACTS = {"none": 0, "relu": 1, "gelu": 2, "silu": 3}


def gemm_case(dt, BM, BN, BK, w, s, act="none", bias=False, res=False, transB=False, evenK=True):
    def fn():
        M, N, K = 520, 392, (512 if evenK else 328)
        dtype = DT[dt]
        a = (torch.randn(M, K, device=DEV) / K ** 0.5).to(dtype)
        if transB:
            bt = torch.randn(N, K, device=DEV).to(dtype)
            b = bt.t()
        else:
            b = torch.randn(K, N, device=DEV).to(dtype)
        bv = torch.randn(N, device=DEV).to(dtype)
        r = torch.randn(M, N, device=DEV).to(dtype)
        c = torch.empty(M, N, device=DEV, dtype=dtype)
        grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
        launch(gemm_epilogue_kernel, grid, a, b, c, bv, r, M, N, K, a.stride(0), a.stride(1),
               b.stride(0), b.stride(1), c.stride(0), c.stride(1), r.stride(0),
               BM=BM, BN=BN, BK=BK, GROUP=8, EVEN_K=evenK, HAS_BIAS=bias, HAS_RES=res,
               ACT=ACTS[act], num_warps=w, num_stages=s)
        ref = a.float() @ b.float()
        if bias:
            ref = ref + bv.float()[None, :]
        ref = _ref_act(ref, ACTS[act])
        if res:
            ref = ref + r.float()
        tol = 2e-2 if dt != "bf16" else 6e-2
        return close(c, ref, tol, tol)
    return fn


GEMM_CONFIGS = [
    # dt, BM, BN, BK, warps, stages, act, bias, res, transB, evenK, sm80
    ("fp16", 128, 128, 64, 8, 3, "none", False, False, False, True, True),
    ("fp16", 128, 256, 64, 8, 3, "none", False, False, False, True, False),
    ("fp16", 256, 128, 64, 8, 3, "relu", True, False, False, True, False),
    ("fp16", 64, 64, 32, 4, 5, "none", False, False, False, False, True),
    ("fp16", 64, 128, 64, 4, 4, "gelu", True, False, False, True, True),
    ("fp16", 128, 64, 64, 4, 4, "silu", False, True, False, True, False),
    ("fp16", 32, 64, 32, 2, 4, "none", False, False, False, False, True),
    ("fp16", 64, 256, 32, 4, 4, "none", False, False, True, True, False),
    ("fp16", 256, 64, 32, 4, 3, "relu", False, False, False, True, False),
    ("fp16", 128, 128, 128, 8, 2, "none", False, False, False, True, True),
    ("fp16", 16, 64, 64, 4, 3, "none", False, False, False, False, True),
    ("fp16", 64, 32, 64, 2, 3, "gelu", True, False, False, True, False),
    ("fp16", 128, 32, 32, 4, 2, "none", False, False, True, True, True),
    ("fp16", 256, 256, 64, 8, 3, "none", False, False, False, True, False),
    ("fp16", 128, 128, 32, 4, 4, "none", False, False, False, True, False),
    ("fp16", 64, 64, 64, 2, 3, "none", False, False, False, True, True),
    ("bf16", 128, 128, 64, 8, 3, "gelu", True, True, False, True, True),
    ("bf16", 128, 256, 64, 8, 4, "silu", False, False, False, True, False),
    ("bf16", 64, 128, 32, 4, 4, "relu", False, False, True, True, True),
    ("bf16", 256, 128, 32, 8, 3, "none", False, False, False, False, False),
    ("bf16", 128, 128, 64, 4, 3, "gelu", True, False, False, True, True),
    ("fp32", 128, 128, 32, 8, 3, "none", False, False, False, True, True),
    ("fp32", 64, 64, 32, 4, 3, "relu", True, False, False, False, True),
    ("fp32", 128, 64, 16, 4, 4, "none", False, False, True, True, False),
]
for dt, BM, BN, BK, w, s, act, bias, res, tb, ek, sm80 in GEMM_CONFIGS:
    name = "gemm_%s_m%dn%dk%d_w%ds%d_%s%s%s%s%s" % (dt, BM, BN, BK, w, s, act, "_bias" if bias else "",
                                                  "_res" if res else "", "_bT" if tb else "",
                                                  "" if ek else "_ktail")
    cfg = dict(dtype=dt, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=w, num_stages=s, act=act,
               bias=bias, residual=res, b_transposed=tb, even_k=ek)
    add(name, gemm_case(dt, BM, BN, BK, w, s, act, bias, res, tb, ek), cfg, sm80=sm80)


# ---------------------------------------------------------------- split-K (two kernels)
@triton.jit
def splitk_partial_kernel(A, B, W, M, N, K, K_PER, s_am, s_ak, s_bk, s_bn,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    ps = tl.program_id(2)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    k_lo = ps * K_PER
    k_hi = tl.minimum(k_lo + K_PER, K)
    a_ptr = A + rm[:, None] * s_am + (k_lo + rk)[None, :] * s_ak
    b_ptr = B + (k_lo + rk)[:, None] * s_bk + rn[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(k_lo, k_hi, BK):
        a = tl.load(a_ptr, mask=(rm[:, None] < M) & (k0 + rk[None, :] < k_hi), other=0.0)
        b = tl.load(b_ptr, mask=(k0 + rk[:, None] < k_hi) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptr += BK * s_ak
        b_ptr += BK * s_bk
    w_ptr = W + ps.to(tl.int64) * M * N + rm[:, None] * N + rn[None, :]
    tl.store(w_ptr, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def splitk_reduce_kernel(W, C, Bias, M, N, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < M * N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in tl.static_range(SPLIT):
        acc += tl.load(W + s * M * N + offs, mask=mask, other=0.0)
    acc += tl.load(Bias + offs % N, mask=mask, other=0.0).to(tl.float32)
    tl.store(C + offs, acc.to(C.dtype.element_ty), mask=mask)


def splitk_case(dt, BM, BN, BK, w, s, SPLIT, RB):
    def fn():
        M, N, K = 192, 264, 4096
        dtype = DT[dt]
        a = (torch.randn(M, K, device=DEV) / K ** 0.5).to(dtype)
        b = torch.randn(K, N, device=DEV).to(dtype)
        bias = torch.randn(N, device=DEV).to(dtype)
        ws = torch.empty(SPLIT, M, N, device=DEV, dtype=torch.float32)
        c = torch.empty(M, N, device=DEV, dtype=dtype)
        k_per = triton.cdiv(triton.cdiv(K, SPLIT), BK) * BK
        launch(splitk_partial_kernel, (triton.cdiv(M, BM), triton.cdiv(N, BN), SPLIT), a, b, ws, M, N, K,
               k_per, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BM=BM, BN=BN, BK=BK,
               num_warps=w, num_stages=s)
        launch(splitk_reduce_kernel, (triton.cdiv(M * N, RB),), ws, c, bias, M, N, SPLIT=SPLIT, BLOCK=RB,
               num_warps=4)
        ref = a.float() @ b.float() + bias.float()[None, :]
        return close(c, ref, 3e-2, 3e-2)
    return fn


for dt, BM, BN, BK, w, s, SPLIT, RB, sm80 in [
        ("fp16", 64, 64, 64, 4, 3, 4, 1024, False),
        ("fp16", 128, 128, 32, 8, 3, 8, 512, True),
        ("fp16", 128, 64, 64, 4, 4, 2, 2048, False),
        ("fp16", 64, 128, 32, 4, 4, 16, 1024, True),
        ("bf16", 32, 32, 64, 2, 3, 8, 256, False)]:
    add("splitk_%s_m%dn%dk%d_w%ds%d_split%d_rb%d" % (dt, BM, BN, BK, w, s, SPLIT, RB),
        splitk_case(dt, BM, BN, BK, w, s, SPLIT, RB),
        dict(dtype=dt, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=w, num_stages=s, split_k=SPLIT,
             reduce_block=RB), sm80=sm80)


# ---------------------------------------------------------------- MoE grouped GEMM
@triton.jit
def moe_gemm_kernel(A, W1, W3, C, TileE, TileM, Offs, N, K, s_we, s_wk, s_wn,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GATED: tl.constexpr):
    t = tl.program_id(0)
    pn = tl.program_id(1)
    e = tl.load(TileE + t)
    m0 = tl.load(TileM + t)
    end = tl.load(Offs + e + 1)
    rm = m0 + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptr = A + rm[:, None] * K + rk[None, :]
    w_off = e.to(tl.int64) * s_we + rk[:, None] * s_wk + rn[None, :] * s_wn
    w1_ptr = W1 + w_off
    w3_ptr = W3 + w_off
    acc1 = tl.zeros((BM, BN), dtype=tl.float32)
    acc3 = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr, mask=rm[:, None] < end, other=0.0)
        b1 = tl.load(w1_ptr, mask=rn[None, :] < N, other=0.0)
        acc1 = tl.dot(a, b1, acc1)
        if GATED:
            b3 = tl.load(w3_ptr, mask=rn[None, :] < N, other=0.0)
            acc3 = tl.dot(a, b3, acc3)
        a_ptr += BK
        w1_ptr += BK * s_wk
        w3_ptr += BK * s_wk
    if GATED:
        out = acc1 * tl.sigmoid(acc1) * acc3
    else:
        out = acc1
    mask = (rm[:, None] < end) & (rn[None, :] < N)
    tl.store(C + rm[:, None] * N + rn[None, :], out.to(C.dtype.element_ty), mask=mask)


def moe_case(BM, BN, BK, w, s, gated):
    def fn():
        E, K, N = 8, 256, 384
        counts = torch.randint(20, 160, (E,)).tolist()
        counts[3] = 0
        T = sum(counts)
        offs = [0]
        for c_ in counts:
            offs.append(offs[-1] + c_)
        te, tm = [], []
        for e in range(E):
            for m0 in range(offs[e], offs[e + 1], BM):
                te.append(e)
                tm.append(m0)
        a = (torch.randn(T, K, device=DEV) / K ** 0.5).half()
        w1 = torch.randn(E, K, N, device=DEV).half()
        w3 = torch.randn(E, K, N, device=DEV).half()
        c = torch.empty(T, N, device=DEV, dtype=torch.float16)
        tile_e = torch.tensor(te, device=DEV, dtype=torch.int32)
        tile_m = torch.tensor(tm, device=DEV, dtype=torch.int32)
        offs_t = torch.tensor(offs, device=DEV, dtype=torch.int32)
        launch(moe_gemm_kernel, (len(te), triton.cdiv(N, BN)), a, w1, w3, c, tile_e, tile_m, offs_t, N, K,
               w1.stride(0), w1.stride(1), w1.stride(2), BM=BM, BN=BN, BK=BK, GATED=gated,
               num_warps=w, num_stages=s)
        ref = torch.empty(T, N, device=DEV)
        for e in range(E):
            x = a[offs[e]:offs[e + 1]].float()
            h = x @ w1[e].float()
            if gated:
                h = torch.nn.functional.silu(h) * (x @ w3[e].float())
            ref[offs[e]:offs[e + 1]] = h
        return close(c, ref, 3e-2, 3e-2)
    return fn


for BM, BN, BK, w, s, gated, sm80 in [
        (64, 64, 32, 4, 3, False, False), (128, 128, 64, 8, 3, False, True), (64, 128, 64, 4, 4, False, False),
        (64, 64, 32, 4, 3, True, True), (128, 64, 64, 8, 3, True, False), (64, 128, 32, 4, 3, True, True),
        (128, 128, 32, 8, 3, True, False)]:
    add("moe_%s_m%dn%dk%d_w%ds%d" % ("swiglu" if gated else "plain", BM, BN, BK, w, s),
        moe_case(BM, BN, BK, w, s, gated),
        dict(dtype="fp16", BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=w, num_stages=s, gated=gated),
        sm80=sm80)


# ---------------------------------------------------------------- int8 GEMM with dequant
@triton.jit
def int8_gemm_kernel(A, B, C, SA, SB, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptr = A + rm[:, None] * K + rk[None, :]
    b_ptr = B + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr, mask=rm[:, None] < M, other=0)
        b = tl.load(b_ptr, mask=rn[None, :] < N, other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        a_ptr += BK
        b_ptr += BK * N
    sa = tl.load(SA + rm, mask=rm < M, other=0.0)
    sb = tl.load(SB + rn, mask=rn < N, other=0.0)
    out = acc.to(tl.float32) * sa[:, None] * sb[None, :]
    tl.store(C + rm[:, None] * N + rn[None, :], out.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def int8_case(BM, BN, BK, w, s):
    def fn():
        M, N, K = 300, 256, 512
        a = torch.randint(-100, 100, (M, K), device=DEV, dtype=torch.int8)
        b = torch.randint(-100, 100, (K, N), device=DEV, dtype=torch.int8)
        sa = torch.rand(M, device=DEV) * 1e-3
        sb = torch.rand(N, device=DEV) * 1e-3
        c = torch.empty(M, N, device=DEV, dtype=torch.float32)
        launch(int8_gemm_kernel, (triton.cdiv(M, BM), triton.cdiv(N, BN)), a, b, c, sa, sb, M, N, K,
               BM=BM, BN=BN, BK=BK, num_warps=w, num_stages=s)
        ref = (a.double() @ b.double()) * sa.double()[:, None] * sb.double()[None, :]
        return close(c, ref, 1e-3, 1e-4)
    return fn


for BM, BN, BK, w, s, sm80 in [(128, 128, 64, 8, 3, True), (64, 64, 64, 4, 4, False), (128, 256, 128, 8, 3, False)]:
    add("int8_m%dn%dk%d_w%ds%d" % (BM, BN, BK, w, s), int8_case(BM, BN, BK, w, s),
        dict(dtype="int8", BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=w, num_stages=s), sm80=sm80)


if __name__ == "__main__":
    run_all("gemm")
