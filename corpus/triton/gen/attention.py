"""Flash-attention style kernels (Triton): forward (causal and not, fp16 and bf16, log-sum-exp
saved for the backward pass) and backward (preprocess, dK/dV, dQ)."""
import math

import torch
import triton
import triton.language as tl

from common import DEV, all_close, case, close, run_all

torch.manual_seed(0)


@triton.jit
def attn_fwd_kernel(Q, K, V, LSE, O, sm_scale, N_CTX,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    if CAUSAL:
        hi = (start_m + 1) * BLOCK_M
    else:
        hi = N_CTX
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        kT = tl.load(K + base + cols[None, :] * HEAD_DIM + offs_d[:, None])
        qk = tl.dot(q, kT) * qk_scale
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + base + cols[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(LSE + off_hz * N_CTX + offs_m, m_i + tl.math.log2(l_i))
    tl.store(O + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(O.dtype.element_ty))


@triton.jit
def attn_bwd_preprocess_kernel(O, DO, Delta, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    offs_d = tl.arange(0, HEAD_DIM)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    o = tl.load(O + base + off_m[:, None] * HEAD_DIM + offs_d[None, :]).to(tl.float32)
    do = tl.load(DO + base + off_m[:, None] * HEAD_DIM + offs_d[None, :]).to(tl.float32)
    tl.store(Delta + off_hz * N_CTX + off_m, tl.sum(o * do, axis=1))


@triton.jit
def attn_bwd_dkdv_kernel(Q, K, V, DO, LSE, Delta, DK, DV, sm_scale, N_CTX,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         CAUSAL: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    dk = tl.zeros([BLOCK_N, HEAD_DIM], tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    if CAUSAL:
        lo = start_n
    else:
        lo = 0
    for start_m in range(lo, N_CTX, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        qT = tl.load(Q + base + offs_m[None, :] * HEAD_DIM + offs_d[:, None])
        l = tl.load(LSE + off_hz * N_CTX + offs_m)
        pT = tl.math.exp2(tl.dot(k, qT) * qk_scale - l[None, :])
        if CAUSAL:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
        dv = tl.dot(pT.to(do.dtype), do, dv)
        delta = tl.load(Delta + off_hz * N_CTX + offs_m)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk = tl.dot(dsT.to(qT.dtype), tl.trans(qT), dk)
    dk = dk * sm_scale
    tl.store(DK + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], dk.to(DK.dtype.element_ty))
    tl.store(DV + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], dv.to(DV.dtype.element_ty))


@triton.jit
def attn_bwd_dq_kernel(Q, K, V, DO, LSE, Delta, DQ, sm_scale, N_CTX,
                       HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       CAUSAL: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    l = tl.load(LSE + off_hz * N_CTX + offs_m)
    delta = tl.load(Delta + off_hz * N_CTX + offs_m)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    if CAUSAL:
        hi = start_m + BLOCK_M
    else:
        hi = N_CTX
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kT = tl.load(K + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
        vT = tl.load(V + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
        p = tl.math.exp2(tl.dot(q, kT) * qk_scale - l[:, None])
        if CAUSAL:
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        dp = tl.dot(do, vT)
        ds = p * (dp - delta[:, None])
        dq = tl.dot(ds.to(kT.dtype), tl.trans(kT), dq)
    dq = dq * sm_scale
    tl.store(DQ + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], dq.to(DQ.dtype.element_ty))


def _inputs(dtype, Z=2, H=3, N=256, D=64):
    q = torch.randn(Z, H, N, D, device=DEV, dtype=dtype) * 0.5
    k = torch.randn(Z, H, N, D, device=DEV, dtype=dtype) * 0.5
    v = torch.randn(Z, H, N, D, device=DEV, dtype=dtype) * 0.5
    return q, k, v


def _ref(q, k, v, causal, sm_scale, do=None):
    qf, kf, vf = (t.float().requires_grad_(True) for t in (q, k, v))
    s = (qf @ kf.transpose(-1, -2)) * sm_scale
    if causal:
        n = q.shape[2]
        mask = torch.tril(torch.ones(n, n, device=DEV, dtype=torch.bool))
        s = s.masked_fill(~mask, float("-inf"))
    o = torch.softmax(s, -1) @ vf
    if do is None:
        return o.detach(), None
    o.backward(do.float())
    return o.detach(), (qf.grad, kf.grad, vf.grad)


def _fwd(q, k, v, causal, sm_scale, BM=64, BN=64, warps=4, stages=2):
    Z, H, N, D = q.shape
    o = torch.empty_like(q)
    lse = torch.empty(Z * H, N, device=DEV, dtype=torch.float32)
    attn_fwd_kernel[(N // BM, Z * H)](q, k, v, lse, o, sm_scale, N, HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN,
                                      CAUSAL=causal, num_warps=warps, num_stages=stages)
    return o, lse


def _fwd_case(dtype, causal, D=64, BM=64, BN=64, warps=4, stages=2):
    q, k, v = _inputs(dtype, D=D)
    sm_scale = 1.0 / math.sqrt(q.shape[-1])
    o, _ = _fwd(q, k, v, causal, sm_scale, BM, BN, warps, stages)
    ref, _ = _ref(q, k, v, causal, sm_scale)
    return close(o, ref, 1e-2, 1e-2)


@case("flash_attn_fwd_fp16")
def t_fwd():
    return _fwd_case(torch.float16, False)


@case("flash_attn_fwd_fp16_causal")
def t_fwd_causal():
    return _fwd_case(torch.float16, True)


@case("flash_attn_fwd_bf16_causal_d128")
def t_fwd_bf16():
    return _fwd_case(torch.bfloat16, True, D=128, BM=128, BN=64, warps=8, stages=3)


def _bwd_case(causal, dtype=torch.float16):
    q, k, v = _inputs(dtype)
    Z, H, N, D = q.shape
    sm_scale = 1.0 / math.sqrt(D)
    o, lse = _fwd(q, k, v, causal, sm_scale)
    do = torch.randn_like(q) * 0.5
    delta = torch.empty(Z * H, N, device=DEV, dtype=torch.float32)
    attn_bwd_preprocess_kernel[(N // 64, Z * H)](o, do, delta, N, HEAD_DIM=D, BLOCK_M=64)
    dq = torch.empty_like(q)
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    attn_bwd_dkdv_kernel[(N // 64, Z * H)](q, k, v, do, lse, delta, dk, dv, sm_scale, N, HEAD_DIM=D,
                                           BLOCK_M=64, BLOCK_N=64, CAUSAL=causal, num_warps=4, num_stages=2)
    attn_bwd_dq_kernel[(N // 64, Z * H)](q, k, v, do, lse, delta, dq, sm_scale, N, HEAD_DIM=D,
                                         BLOCK_M=64, BLOCK_N=64, CAUSAL=causal, num_warps=4, num_stages=2)
    ref, (rq, rk, rv) = _ref(q, k, v, causal, sm_scale, do)
    return all_close([(o, ref, 1e-2, 1e-2, "o"), (dq, rq, 3e-2, 2e-2, "dq"), (dk, rk, 3e-2, 2e-2, "dk"),
                      (dv, rv, 3e-2, 2e-2, "dv")])


@case("flash_attn_bwd_fp16")
def t_bwd():
    return _bwd_case(False)


@case("flash_attn_bwd_fp16_causal")
def t_bwd_causal():
    return _bwd_case(True)


if __name__ == "__main__":
    import sys
    run_all("attention", sys.argv[1:] or None)
