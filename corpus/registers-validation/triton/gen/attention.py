"""Attention family for the validation set: a fused attention forward with online softmax
(exp2, running max and sum, log-sum-exp saved) at head dims 64/128 (and 32/256), causal or not,
sliding-window masking, grouped-query heads, fp16/bf16, several BLOCK_M/BLOCK_N/num_warps/
num_stages; and a split-KV decoding kernel (one query per head) with its combine kernel."""
import math

import torch
import triton
import triton.language as tl

from harness import DEV, add, all_close, launch, run_all

torch.manual_seed(4321)


@triton.jit
def attn_fwd_kernel(Q, K, V, O, L, sm_scale, s_qb, s_qh, s_qm, s_kb, s_kh, s_kn, s_vb, s_vh, s_vn,
                    s_ob, s_oh, s_om, H, N_CTX,
                    GROUP: tl.constexpr, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                    CAUSAL: tl.constexpr, WINDOW: tl.constexpr):
    pm = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    hk = h // GROUP
    rm = pm * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + b * s_qb + h * s_qh + rm[:, None] * s_qm + rd[None, :], mask=rm[:, None] < N_CTX, other=0.0)
    k_base = K + b * s_kb + hk * s_kh
    v_base = V + b * s_vb + hk * s_vh
    m_i = tl.full([BM], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    if CAUSAL:
        hi = tl.minimum((pm + 1) * BM, N_CTX)
    else:
        hi = N_CTX
    for start in range(0, hi, BN):
        cols = start + rn
        k = tl.load(k_base + cols[None, :] * s_kn + rd[:, None], mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        valid = cols[None, :] < N_CTX
        if CAUSAL:
            valid = valid & (rm[:, None] >= cols[None, :])
        if WINDOW > 0:
            valid = valid & (cols[None, :] > rm[:, None] - WINDOW)
        qk = tl.where(valid, qk, -1.0e6)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None] * s_vn + rd[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + b * s_ob + h * s_oh + rm[:, None] * s_om + rd[None, :], acc.to(O.dtype.element_ty),
             mask=rm[:, None] < N_CTX)
    tl.store(L + bh * N_CTX + rm, m_i + tl.log2(l_i), mask=rm < N_CTX)


def attn_ref(q, k, v, causal, window, group):
    if group > 1:
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
    q, k, v = q.float(), k.float(), v.float()
    n = q.shape[2]
    s = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    i = torch.arange(n, device=DEV)
    valid = torch.ones(n, n, dtype=torch.bool, device=DEV)
    if causal:
        valid &= i[:, None] >= i[None, :]
    if window:
        valid &= i[None, :] > i[:, None] - window
    s = s.masked_fill(~valid, float("-inf"))
    lse2 = torch.logsumexp(s, -1) / math.log(2.0)
    return torch.softmax(s, -1) @ v, lse2


def attn_case(dt, D, BM, BN, w, s, causal, window=0, group=1):
    def fn():
        B, H, N = 2, 4, 320
        dtype = torch.float16 if dt == "fp16" else torch.bfloat16
        q = torch.randn(B, H, N, D, device=DEV).to(dtype)
        k = torch.randn(B, H // group, N, D, device=DEV).to(dtype)
        v = torch.randn(B, H // group, N, D, device=DEV).to(dtype)
        o = torch.empty_like(q)
        lse = torch.empty(B * H, N, device=DEV, dtype=torch.float32)
        launch(attn_fwd_kernel, (triton.cdiv(N, BM), B * H), q, k, v, o, lse, 1.0 / math.sqrt(D),
               q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
               v.stride(0), v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2), H, N,
               GROUP=group, D=D, BM=BM, BN=BN, CAUSAL=causal, WINDOW=window, num_warps=w, num_stages=s)
        ro, rl = attn_ref(q, k, v, causal, window, group)
        tol = 2e-2 if dt == "fp16" else 5e-2
        return all_close([(o, ro, tol, tol, "o"), (lse.view(B, H, N), rl, 1e-2, 1e-3, "lse")])
    return fn


ATTN = [
    # dt, D, BM, BN, warps, stages, causal, window, group, sm80
    ("fp16", 64, 128, 64, 4, 3, False, 0, 1, True),
    ("fp16", 64, 128, 64, 4, 3, True, 0, 1, False),
    ("fp16", 64, 128, 128, 8, 3, False, 0, 1, False),
    ("fp16", 64, 128, 128, 8, 3, True, 0, 1, True),
    ("fp16", 64, 64, 64, 4, 4, False, 0, 1, False),
    ("fp16", 64, 64, 64, 4, 4, True, 0, 1, True),
    ("fp16", 64, 128, 32, 4, 2, False, 0, 1, False),
    ("fp16", 64, 128, 32, 4, 2, True, 0, 1, False),
    ("fp16", 128, 128, 64, 8, 3, False, 0, 1, True),
    ("fp16", 128, 128, 64, 8, 3, True, 0, 1, False),
    ("fp16", 128, 64, 64, 4, 3, False, 0, 1, False),
    ("fp16", 128, 64, 64, 4, 3, True, 0, 1, True),
    ("fp16", 128, 128, 128, 8, 2, False, 0, 1, False),
    ("fp16", 128, 128, 128, 8, 2, True, 0, 1, False),
    ("fp16", 128, 64, 32, 4, 2, False, 0, 1, True),
    ("fp16", 128, 64, 32, 4, 2, True, 0, 1, False),
    ("bf16", 64, 128, 64, 4, 3, True, 0, 1, True),
    ("bf16", 128, 128, 64, 8, 3, True, 0, 1, False),
    ("bf16", 128, 64, 64, 4, 4, False, 0, 1, False),
    ("fp16", 64, 128, 64, 4, 3, True, 96, 1, True),
    ("fp16", 128, 64, 64, 4, 3, False, 128, 1, False),
    ("fp16", 128, 128, 64, 8, 3, True, 0, 4, True),
    ("fp16", 64, 64, 32, 4, 3, False, 0, 2, False),
    ("fp16", 32, 64, 64, 4, 3, True, 0, 1, False),
    ("fp16", 256, 64, 32, 4, 2, False, 0, 1, False),
    ("fp16", 256, 64, 64, 8, 2, True, 0, 1, True),
]
for dt, D, BM, BN, w, s, causal, window, group, sm80 in ATTN:
    name = "attn_fwd_%s_d%d_m%dn%d_w%ds%d%s%s%s" % (dt, D, BM, BN, w, s, "_causal" if causal else "",
                                                   "_win%d" % window if window else "",
                                                   "_gqa%d" % group if group > 1 else "")
    add(name, attn_case(dt, D, BM, BN, w, s, causal, window, group),
        dict(dtype=dt, head_dim=D, BLOCK_M=BM, BLOCK_N=BN, num_warps=w, num_stages=s, causal=causal,
             window=window, kv_group=group), sm80=sm80)


# ---------------------------------------------------------------- split-KV decoding
@triton.jit
def decode_partial_kernel(Q, K, V, Mp, Lp, Op, sm_scale, N_CTX, CHUNK, H,
                          D: tl.constexpr, BN: tl.constexpr):
    bh = tl.program_id(0)
    sp = tl.program_id(1)
    nsp = tl.num_programs(1)
    rd = tl.arange(0, D)
    rn = tl.arange(0, BN)
    q = tl.load(Q + bh * D + rd).to(tl.float32) * (sm_scale * 1.4426950408889634)
    kv = bh.to(tl.int64) * N_CTX * D
    lo = sp * CHUNK
    hi = tl.minimum(lo + CHUNK, N_CTX)
    m_i = tl.max(tl.full([BN], float("-inf"), dtype=tl.float32), 0)
    l_i = tl.sum(tl.zeros([BN], dtype=tl.float32), 0)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(lo, hi, BN):
        cols = start + rn
        msk = cols < hi
        k = tl.load(K + kv + cols[:, None] * D + rd[None, :], mask=msk[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], 1)
        s = tl.where(msk, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        p = tl.exp2(s - m_new)
        alpha = tl.exp2(m_i - m_new)
        v = tl.load(V + kv + cols[:, None] * D + rd[None, :], mask=msk[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        l_i = l_i * alpha + tl.sum(p, 0)
        m_i = m_new
    o = bh * nsp + sp
    tl.store(Mp + o, m_i)
    tl.store(Lp + o, l_i)
    tl.store(Op + o * D + rd, acc)


@triton.jit
def decode_combine_kernel(Mp, Lp, Op, O, NSPLIT: tl.constexpr, D: tl.constexpr):
    bh = tl.program_id(0)
    rs = tl.arange(0, NSPLIT)
    rd = tl.arange(0, D)
    m = tl.load(Mp + bh * NSPLIT + rs)
    l = tl.load(Lp + bh * NSPLIT + rs)
    o = tl.load(Op + (bh * NSPLIT + rs)[:, None] * D + rd[None, :])
    mx = tl.max(m, 0)
    wgt = tl.exp2(m - mx)
    out = tl.sum(o * wgt[:, None], 0) / tl.sum(l * wgt, 0)
    tl.store(O + bh * D + rd, out.to(O.dtype.element_ty))


def decode_case(D, BN, w, NSPLIT):
    def fn():
        B, H, N = 4, 8, 4000
        q = torch.randn(B, H, D, device=DEV).half()
        k = torch.randn(B, H, N, D, device=DEV).half()
        v = torch.randn(B, H, N, D, device=DEV).half()
        chunk = triton.cdiv(N, NSPLIT)
        mp = torch.empty(B * H, NSPLIT, device=DEV)
        lp = torch.empty(B * H, NSPLIT, device=DEV)
        op = torch.empty(B * H, NSPLIT, D, device=DEV)
        o = torch.empty(B, H, D, device=DEV, dtype=torch.float16)
        launch(decode_partial_kernel, (B * H, NSPLIT), q, k, v, mp, lp, op, 1.0 / math.sqrt(D), N, chunk, H,
               D=D, BN=BN, num_warps=w)
        launch(decode_combine_kernel, (B * H,), mp, lp, op, o, NSPLIT=NSPLIT, D=D, num_warps=2)
        s = torch.einsum("bhd,bhnd->bhn", q.float(), k.float()) / math.sqrt(D)
        ref = torch.einsum("bhn,bhnd->bhd", torch.softmax(s, -1), v.float())
        return all_close([(o, ref, 1e-2, 1e-2, "o")])
    return fn


for D, BN, w, NS, sm80 in [(64, 64, 4, 16, True), (128, 64, 4, 8, False), (128, 128, 8, 32, True),
                           (64, 256, 8, 4, False)]:
    add("decode_d%d_n%d_w%d_split%d" % (D, BN, w, NS), decode_case(D, BN, w, NS),
        dict(dtype="fp16", head_dim=D, BLOCK_N=BN, num_warps=w, num_splits=NS), sm80=sm80)


if __name__ == "__main__":
    run_all("attention")
