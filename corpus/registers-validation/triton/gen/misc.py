"""Softmax, cross-entropy, reductions, row statistics and elementwise kernels for the
validation set: row softmax in registers (several rows per program) and looped two-pass online
softmax for wide rows, softmax backward, log-softmax; fused cross-entropy forward+backward over a
vocabulary in chunks (label smoothing, ignore_index); column sums, argmax with the max, a mean
over the middle axis of a 3-D tensor, a global sum of squares with atomics; a row-statistics
kernel (mean, variance, min, max, absmax, L2 norm, non-zero count) in registers or looped; and
elementwise kernels with many inputs: AdamW, a 10-input fused expression, SwiGLU forward and
backward, GELU backward with bias."""
import torch
import triton
import triton.language as tl

from harness import DEV, add, all_close, close, launch, run_all

torch.manual_seed(777)


# ---------------------------------------------------------------- softmax
@triton.jit
def softmax_rows_kernel(X, Y, M, N, BLOCK: tl.constexpr, ROWS: tl.constexpr, LOG: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * N + cols[None, :], mask=mask, other=float("-inf")).to(tl.float32)
    z = x - tl.max(x, 1)[:, None]
    e = tl.exp(z)
    s = tl.sum(e, 1)
    if LOG:
        y = z - tl.log(s)[:, None]
    else:
        y = e / s[:, None]
    tl.store(Y + rows[:, None] * N + cols[None, :], y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def softmax_looped_kernel(X, Y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    l = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        x = tl.load(X + row * N + c0 + cols, mask=c0 + cols < N, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        l = l * tl.exp(m - m_new) + tl.exp(x - m_new)
        l = tl.where(m_new == float("-inf"), 0.0, l)
        m = m_new
    mx = tl.max(m, 0)
    tot = tl.sum(l * tl.exp(m - mx), 0)
    for c0 in range(0, N, BLOCK):
        x = tl.load(X + row * N + c0 + cols, mask=c0 + cols < N, other=float("-inf")).to(tl.float32)
        tl.store(Y + row * N + c0 + cols, (tl.exp(x - mx) / tot).to(Y.dtype.element_ty), mask=c0 + cols < N)


@triton.jit
def softmax_bwd_kernel(Yp, DY, DX, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cm = cols < N
    y = tl.load(Yp + row * N + cols, mask=cm, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * N + cols, mask=cm, other=0.0).to(tl.float32)
    dx = y * (dy - tl.sum(y * dy, 0))
    tl.store(DX + row * N + cols, dx.to(DX.dtype.element_ty), mask=cm)


def softmax_case(M, N, BLOCK, ROWS, w, log, dt):
    def fn():
        dtype = torch.float16 if dt == "fp16" else torch.float32
        x = (torch.randn(M, N, device=DEV) * 3).to(dtype)
        y = torch.empty_like(x)
        launch(softmax_rows_kernel, (triton.cdiv(M, ROWS),), x, y, M, N, BLOCK=BLOCK, ROWS=ROWS, LOG=log, num_warps=w)
        ref = torch.log_softmax(x.float(), 1) if log else torch.softmax(x.float(), 1)
        return close(y, ref, 2e-2 if log else 2e-3, 1e-2)
    return fn


for M, N, BLOCK, ROWS, w, log, dt, sm80 in [
        (1024, 1000, 1024, 1, 4, False, "fp16", True), (512, 4096, 4096, 1, 8, False, "fp16", False),
        (512, 4096, 4096, 1, 4, False, "fp32", True), (256, 8192, 8192, 1, 8, False, "fp32", False),
        (8192, 128, 128, 16, 4, False, "fp16", False), (4096, 256, 256, 8, 8, False, "fp32", True),
        (1024, 2048, 2048, 2, 8, True, "fp16", False), (512, 3000, 4096, 1, 4, True, "fp32", True)]:
    add("softmax%s_%s_n%d_b%d_r%d_w%d" % ("_log" if log else "", dt, N, BLOCK, ROWS, w),
        softmax_case(M, N, BLOCK, ROWS, w, log, dt),
        dict(dtype=dt, M=M, N=N, BLOCK_N=BLOCK, ROWS=ROWS, num_warps=w, log=log), sm80=sm80)


def softmax_looped_case(M, N, BLOCK, w):
    def fn():
        x = (torch.randn(M, N, device=DEV) * 4).half()
        y = torch.empty_like(x)
        launch(softmax_looped_kernel, (M,), x, y, N, BLOCK=BLOCK, num_warps=w)
        return close(y, torch.softmax(x.float(), 1), 1e-3, 1e-2)
    return fn


for M, N, BLOCK, w, sm80 in [(64, 50257, 2048, 8, True), (128, 32000, 1024, 4, False), (32, 128000, 4096, 16, False)]:
    add("softmax_looped_fp16_n%d_b%d_w%d" % (N, BLOCK, w), softmax_looped_case(M, N, BLOCK, w),
        dict(dtype="fp16", M=M, N=N, BLOCK_N=BLOCK, num_warps=w), sm80=sm80)


def softmax_bwd_case(M, N, BLOCK, w):
    def fn():
        x = torch.randn(M, N, device=DEV)
        y = torch.softmax(x, 1)
        dy = torch.randn(M, N, device=DEV)
        dx = torch.empty_like(x)
        launch(softmax_bwd_kernel, (M,), y, dy, dx, N, BLOCK=BLOCK, num_warps=w)
        ref = y * (dy - (y * dy).sum(1, keepdim=True))
        return close(dx, ref, 1e-5, 1e-4)
    return fn


for M, N, BLOCK, w, sm80 in [(512, 4096, 4096, 8, True), (1024, 1000, 1024, 4, False)]:
    add("softmax_bwd_fp32_n%d_b%d_w%d" % (N, BLOCK, w), softmax_bwd_case(M, N, BLOCK, w),
        dict(dtype="fp32", M=M, N=N, BLOCK_N=BLOCK, num_warps=w), sm80=sm80)


# ---------------------------------------------------------------- cross-entropy fwd + bwd
@triton.jit
def xent_fused_kernel(Logits, Target, Loss, DLogits, V, inv_count, smoothing, IGNORE: tl.constexpr,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    t = tl.load(Target + row)
    base = Logits + row * V
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    l = tl.zeros([BLOCK], dtype=tl.float32)
    sx = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, V, BLOCK):
        cm = c0 + cols < V
        x = tl.load(base + c0 + cols, mask=cm, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        l = tl.where(m_new == float("-inf"), 0.0, l * tl.exp(m - m_new) + tl.exp(x - m_new))
        sx += tl.where(cm, x, 0.0)
        m = m_new
    mx = tl.max(m, 0)
    lse = mx + tl.log(tl.sum(l * tl.exp(m - mx), 0))
    valid = t != IGNORE
    xt = tl.load(base + tl.where(valid, t, 0)).to(tl.float32)
    eps_v = smoothing / V
    loss = (1.0 - smoothing) * (lse - xt) + eps_v * (V * lse - tl.sum(sx, 0))
    scale = tl.where(valid, inv_count, 0.0)
    tl.store(Loss + row, tl.where(valid, loss, 0.0))
    for c0 in range(0, V, BLOCK):
        cm = c0 + cols < V
        x = tl.load(base + c0 + cols, mask=cm, other=0.0).to(tl.float32)
        g = tl.exp(x - lse) - eps_v - tl.where(c0 + cols == t, 1.0 - smoothing, 0.0)
        tl.store(DLogits + row * V + c0 + cols, (g * scale).to(DLogits.dtype.element_ty), mask=cm)


def xent_case(M, V, BLOCK, w, smoothing):
    def fn():
        x = (torch.randn(M, V, device=DEV) * 2).to(torch.bfloat16)
        t = torch.randint(0, V, (M,), device=DEV)
        t[::7] = -100
        count = int((t != -100).sum())
        loss = torch.empty(M, device=DEV)
        dx = torch.empty_like(x)
        launch(xent_fused_kernel, (M,), x, t, loss, dx, V, 1.0 / count, smoothing, IGNORE=-100, BLOCK=BLOCK,
               num_warps=w)
        xf = x.float().requires_grad_(True)
        ref = torch.nn.functional.cross_entropy(xf, t, ignore_index=-100, label_smoothing=smoothing,
                                                reduction="none")
        (ref.sum() / count).backward()
        return all_close([(loss, ref, 1e-3, 1e-4, "loss"), (dx, xf.grad, 1e-5, 2e-2, "dlogits")])
    return fn


for M, V, BLOCK, w, sm, sm80 in [(64, 32000, 4096, 8, 0.1, True), (48, 50257, 2048, 4, 0.0, False),
                                 (32, 32000, 8192, 16, 0.05, False)]:
    add("xent_bf16_v%d_b%d_w%d_ls%g" % (V, BLOCK, w, sm), xent_case(M, V, BLOCK, w, sm),
        dict(dtype="bf16", M=M, V=V, BLOCK=BLOCK, num_warps=w, label_smoothing=sm), sm80=sm80)


# ---------------------------------------------------------------- reductions
@triton.jit
def argmax_rows_kernel(X, Vals, Idx, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    best = tl.full([BM], float("-inf"), dtype=tl.float32)
    bidx = tl.zeros([BM], dtype=tl.int32)
    for c0 in range(0, N, BN):
        c = c0 + cols
        x = tl.load(X + rows[:, None] * N + c[None, :], mask=(rows[:, None] < M) & (c[None, :] < N),
                    other=float("-inf")).to(tl.float32)
        v, i = tl.max(x, axis=1, return_indices=True)
        upd = v > best
        bidx = tl.where(upd, i + c0, bidx)
        best = tl.where(upd, v, best)
    tl.store(Vals + rows, best, mask=rows < M)
    tl.store(Idx + rows, bidx, mask=rows < M)


@triton.jit
def mean_mid_kernel(X, Out, R, C, BR: tl.constexpr, BC: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BC + tl.arange(0, BC)
    rr = tl.arange(0, BR)
    acc = tl.zeros([BR, BC], dtype=tl.float32)
    for r0 in range(0, R, BR):
        r = r0 + rr
        acc += tl.load(X + b * R * C + r[:, None] * C + cols[None, :], mask=(r[:, None] < R) & (cols[None, :] < C),
                       other=0.0).to(tl.float32)
    tl.store(Out + b * C + cols, tl.sum(acc, 0) / R, mask=cols < C)


@triton.jit
def sumsq_atomic_kernel(X, Out, n, BLOCK: tl.constexpr, ITERS: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.static_range(ITERS):
        o = (pid * ITERS + i) * BLOCK + offs
        x = tl.load(X + o, mask=o < n, other=0.0).to(tl.float32)
        acc += x * x
    tl.atomic_add(Out, tl.sum(acc, 0))


def argmax_case(M, N, BM, BN, w):
    def fn():
        x = torch.randn(M, N, device=DEV)
        vals = torch.empty(M, device=DEV)
        idx = torch.empty(M, device=DEV, dtype=torch.int32)
        launch(argmax_rows_kernel, (triton.cdiv(M, BM),), x, vals, idx, M, N, BM=BM, BN=BN, num_warps=w)
        rv, ri = x.max(1)
        ok = bool(torch.equal(idx.long(), ri)) and bool(torch.equal(vals, rv))
        return ok, "argmax exact=%s" % ok
    return fn


for M, N, BM, BN, w, sm80 in [(1000, 5000, 4, 1024, 4, True), (300, 32000, 1, 4096, 8, False), (4096, 300, 32, 128, 4, False)]:
    add("argmax_fp32_n%d_bm%d_bn%d_w%d" % (N, BM, BN, w), argmax_case(M, N, BM, BN, w),
        dict(dtype="fp32", M=M, N=N, BLOCK_M=BM, BLOCK_N=BN, num_warps=w), sm80=sm80)


def mean_mid_case(B, R, C, BR, BC, w):
    def fn():
        x = torch.randn(B, R, C, device=DEV).half()
        out = torch.empty(B, C, device=DEV)
        launch(mean_mid_kernel, (B, triton.cdiv(C, BC)), x, out, R, C, BR=BR, BC=BC, num_warps=w)
        return close(out, x.float().mean(1), 1e-4, 1e-4)
    return fn


for B, R, C, BR, BC, w, sm80 in [(8, 1000, 768, 32, 128, 4, True), (4, 4096, 256, 64, 64, 8, False)]:
    add("mean_mid_fp16_r%d_c%d_br%d_bc%d_w%d" % (R, C, BR, BC, w), mean_mid_case(B, R, C, BR, BC, w),
        dict(dtype="fp16", B=B, R=R, C=C, BLOCK_R=BR, BLOCK_C=BC, num_warps=w), sm80=sm80)


def sumsq_case(n, BLOCK, ITERS, w):
    def fn():
        x = torch.randn(n, device=DEV)
        out = torch.zeros(1, device=DEV)
        launch(sumsq_atomic_kernel, (triton.cdiv(n, BLOCK * ITERS),), x, out, n, BLOCK=BLOCK, ITERS=ITERS, num_warps=w)
        ref = (x.double() ** 2).sum()
        return close(out[0], ref, 1e-2, 1e-5)
    return fn


for n, BLOCK, ITERS, w, sm80 in [(1 << 22, 1024, 8, 4, True), (3_000_001, 4096, 4, 8, False)]:
    add("sumsq_atomic_n%d_b%d_it%d_w%d" % (n, BLOCK, ITERS, w), sumsq_case(n, BLOCK, ITERS, w),
        dict(dtype="fp32", n=n, BLOCK=BLOCK, ITERS=ITERS, num_warps=w), sm80=sm80)


# ---------------------------------------------------------------- row statistics
@triton.jit
def row_stats_kernel(X, Stats, M, N, BLOCK: tl.constexpr, LOOP: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    if LOOP:
        s1 = tl.zeros([BLOCK], dtype=tl.float32)
        s2 = tl.zeros([BLOCK], dtype=tl.float32)
        mn = tl.full([BLOCK], float("inf"), dtype=tl.float32)
        mx = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
        am = tl.zeros([BLOCK], dtype=tl.float32)
        nz = tl.zeros([BLOCK], dtype=tl.int32)
        for c0 in range(0, N, BLOCK):
            cm = c0 + cols < N
            x = tl.load(X + row * N + c0 + cols, mask=cm, other=0.0).to(tl.float32)
            s1 += x
            s2 += x * x
            mn = tl.minimum(mn, tl.where(cm, x, float("inf")))
            mx = tl.maximum(mx, tl.where(cm, x, float("-inf")))
            am = tl.maximum(am, tl.abs(x))
            nz += (x != 0.0).to(tl.int32)
        mean = tl.sum(s1, 0) / N
        var = tl.sum(s2, 0) / N - mean * mean
        l2 = tl.sqrt(tl.sum(s2, 0))
        vmin = tl.min(mn, 0)
        vmax = tl.max(mx, 0)
        amax = tl.max(am, 0)
        cnt = tl.sum(nz, 0)
    else:
        cm = cols < N
        x = tl.load(X + row * N + cols, mask=cm, other=0.0).to(tl.float32)
        mean = tl.sum(x, 0) / N
        xc = tl.where(cm, x - mean, 0.0)
        var = tl.sum(xc * xc, 0) / N
        l2 = tl.sqrt(tl.sum(x * x, 0))
        vmin = tl.min(tl.where(cm, x, float("inf")), 0)
        vmax = tl.max(tl.where(cm, x, float("-inf")), 0)
        amax = tl.max(tl.abs(x), 0)
        cnt = tl.sum((x != 0.0).to(tl.int32), 0)
    o = Stats + row * 7
    tl.store(o + 0, mean)
    tl.store(o + 1, var)
    tl.store(o + 2, vmin)
    tl.store(o + 3, vmax)
    tl.store(o + 4, amax)
    tl.store(o + 5, l2)
    tl.store(o + 6, cnt.to(tl.float32))


def row_stats_case(M, N, BLOCK, loop, w):
    def fn():
        x = torch.randn(M, N, device=DEV).half()
        x[x.abs() < 0.1] = 0
        st = torch.empty(M, 7, device=DEV)
        launch(row_stats_kernel, (M,), x, st, M, N, BLOCK=BLOCK, LOOP=loop, num_warps=w)
        xf = x.float()
        ref = torch.stack([xf.mean(1), xf.var(1, unbiased=False), xf.min(1).values, xf.max(1).values,
                           xf.abs().max(1).values, xf.norm(dim=1), (xf != 0).sum(1).float()], 1)
        return close(st, ref, 1e-3, 1e-4)
    return fn


for M, N, BLOCK, loop, w, sm80 in [(512, 4096, 4096, False, 8, True), (256, 10000, 1024, True, 4, True),
                                  (128, 65536, 2048, True, 8, False), (2048, 700, 1024, False, 4, False)]:
    add("row_stats_fp16_n%d_b%d_w%d%s" % (N, BLOCK, w, "_loop" if loop else ""), row_stats_case(M, N, BLOCK, loop, w),
        dict(dtype="fp16", M=M, N=N, BLOCK=BLOCK, looped=loop, num_warps=w), sm80=sm80)


# ---------------------------------------------------------------- elementwise, many inputs
@triton.jit
def adamw_kernel(P, G, Mom, Vel, n, lr, b1, b2, eps, wd, bc1, bc2, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(P + offs, mask=mask, other=0.0)
    g = tl.load(G + offs, mask=mask, other=0.0).to(tl.float32)
    m = tl.load(Mom + offs, mask=mask, other=0.0)
    v = tl.load(Vel + offs, mask=mask, other=0.0)
    p = p * (1.0 - lr * wd)
    m = b1 * m + (1.0 - b1) * g
    v = b2 * v + (1.0 - b2) * g * g
    p = p - lr * (m / bc1) / (tl.sqrt(v / bc2) + eps)
    tl.store(P + offs, p, mask=mask)
    tl.store(Mom + offs, m, mask=mask)
    tl.store(Vel + offs, v, mask=mask)


def adamw_case(n, BLOCK, w):
    def fn():
        p = torch.randn(n, device=DEV)
        g = torch.randn(n, device=DEV).to(torch.bfloat16)
        m = torch.randn(n, device=DEV) * 0.1
        v = torch.rand(n, device=DEV) * 0.1
        lr, b1, b2, eps, wd, step = 1e-3, 0.9, 0.999, 1e-8, 0.01, 10
        bc1, bc2 = 1 - b1 ** step, 1 - b2 ** step
        rp, rm, rv = p.clone(), m.clone(), v.clone()
        launch(adamw_kernel, (triton.cdiv(n, BLOCK),), p, g, m, v, n, lr, b1, b2, eps, wd, bc1, bc2, BLOCK=BLOCK,
               num_warps=w)
        gf = g.float()
        rp = rp * (1 - lr * wd)
        rm = b1 * rm + (1 - b1) * gf
        rv = b2 * rv + (1 - b2) * gf * gf
        rp = rp - lr * (rm / bc1) / ((rv / bc2).sqrt() + eps)
        return all_close([(p, rp, 1e-5, 1e-5, "p"), (m, rm, 1e-6, 1e-5, "m"), (v, rv, 1e-6, 1e-5, "v")])
    return fn


for n, BLOCK, w, sm80 in [(1_000_003, 1024, 4, True), (1 << 20, 4096, 8, False), (777_777, 2048, 4, False)]:
    add("adamw_n%d_b%d_w%d" % (n, BLOCK, w), adamw_case(n, BLOCK, w),
        dict(dtype="fp32 params, bf16 grads", n=n, BLOCK=BLOCK, num_warps=w), sm80=sm80)


@triton.jit
def fused10_kernel(A, B, C, D, E, F, G, H, I, J, Out, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + offs, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(C + offs, mask=mask, other=0.0).to(tl.float32)
    d = tl.load(D + offs, mask=mask, other=0.0).to(tl.float32)
    e = tl.load(E + offs, mask=mask, other=0.0).to(tl.float32)
    f = tl.load(F + offs, mask=mask, other=1.0).to(tl.float32)
    g = tl.load(G + offs, mask=mask, other=0.0).to(tl.float32)
    h = tl.load(H + offs, mask=mask, other=0.0).to(tl.float32)
    i = tl.load(I + offs, mask=mask, other=0.0).to(tl.float32)
    j = tl.load(J + offs, mask=mask, other=0.0).to(tl.float32)
    r = a * b + c * d - e / (tl.abs(f) + 1.0) + tl.sigmoid(g) * h + alpha * tl.maximum(i, j) - tl.exp(-tl.abs(a - j))
    tl.store(Out + offs, r.to(Out.dtype.element_ty), mask=mask)


def fused10_case(n, BLOCK, w):
    def fn():
        xs = [torch.randn(n, device=DEV).half() for _ in range(10)]
        out = torch.empty(n, device=DEV, dtype=torch.float16)
        launch(fused10_kernel, (triton.cdiv(n, BLOCK),), *xs, out, n, 0.5, BLOCK=BLOCK, num_warps=w)
        a, b, c, d, e, f, g, h, i, j = [x.float() for x in xs]
        ref = a * b + c * d - e / (f.abs() + 1) + torch.sigmoid(g) * h + 0.5 * torch.maximum(i, j) - torch.exp(-(a - j).abs())
        return close(out, ref, 2e-2, 1e-2)
    return fn


for n, BLOCK, w, sm80 in [(1 << 20, 1024, 4, True), (999_999, 2048, 4, False), (1 << 20, 4096, 4, True)]:
    add("fused10_fp16_n%d_b%d_w%d" % (n, BLOCK, w), fused10_case(n, BLOCK, w),
        dict(dtype="fp16", n=n, BLOCK=BLOCK, num_warps=w, inputs=10), sm80=sm80)


@triton.jit
def swiglu_fwd_kernel(GU, Out, M, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    cm = cols < N
    g = tl.load(GU + row * 2 * N + cols, mask=cm, other=0.0).to(tl.float32)
    u = tl.load(GU + row * 2 * N + N + cols, mask=cm, other=0.0).to(tl.float32)
    tl.store(Out + row * N + cols, (g * tl.sigmoid(g) * u).to(Out.dtype.element_ty), mask=cm)


@triton.jit
def swiglu_bwd_kernel(GU, DOut, DGU, M, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    cm = cols < N
    g = tl.load(GU + row * 2 * N + cols, mask=cm, other=0.0).to(tl.float32)
    u = tl.load(GU + row * 2 * N + N + cols, mask=cm, other=0.0).to(tl.float32)
    do = tl.load(DOut + row * N + cols, mask=cm, other=0.0).to(tl.float32)
    sg = tl.sigmoid(g)
    silu = g * sg
    dg = do * u * sg * (1.0 + g * (1.0 - sg))
    du = do * silu
    tl.store(DGU + row * 2 * N + cols, dg.to(DGU.dtype.element_ty), mask=cm)
    tl.store(DGU + row * 2 * N + N + cols, du.to(DGU.dtype.element_ty), mask=cm)


def swiglu_case(M, N, BLOCK, w):
    def fn():
        gu = torch.randn(M, 2 * N, device=DEV).to(torch.bfloat16)
        do = torch.randn(M, N, device=DEV).to(torch.bfloat16)
        out = torch.empty(M, N, device=DEV, dtype=torch.bfloat16)
        dgu = torch.empty_like(gu)
        grid = (M, triton.cdiv(N, BLOCK))
        launch(swiglu_fwd_kernel, grid, gu, out, M, N, BLOCK=BLOCK, num_warps=w)
        launch(swiglu_bwd_kernel, grid, gu, do, dgu, M, N, BLOCK=BLOCK, num_warps=w)
        x = gu.float().requires_grad_(True)
        g, u = x[:, :N], x[:, N:]
        ref = torch.nn.functional.silu(g) * u
        ref.backward(do.float())
        return all_close([(out, ref, 3e-2, 2e-2, "out"), (dgu, x.grad, 3e-2, 2e-2, "dgu")])
    return fn


for M, N, BLOCK, w, sm80 in [(512, 2816, 1024, 4, True), (256, 11008, 4096, 8, False)]:
    add("swiglu_bf16_n%d_b%d_w%d" % (N, BLOCK, w), swiglu_case(M, N, BLOCK, w),
        dict(dtype="bf16", M=M, N=N, BLOCK=BLOCK, num_warps=w), sm80=sm80)


@triton.jit
def gelu_bwd_bias_kernel(DY, X, Bias, DX, n, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dy = tl.load(DY + offs, mask=mask, other=0.0).to(tl.float32)
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32) + tl.load(Bias + offs % N, mask=mask, other=0.0).to(tl.float32)
    k0 = 0.7978845608028654
    inner = k0 * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    dgelu = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k0 * (1.0 + 3.0 * 0.044715 * x * x)
    tl.store(DX + offs, (dy * dgelu).to(DX.dtype.element_ty), mask=mask)


def gelu_bwd_case(M, N, BLOCK, w):
    def fn():
        x = torch.randn(M, N, device=DEV).half()
        b = torch.randn(N, device=DEV).half()
        dy = torch.randn(M, N, device=DEV).half()
        dx = torch.empty_like(x)
        launch(gelu_bwd_bias_kernel, (triton.cdiv(M * N, BLOCK),), dy, x, b, dx, M * N, N, BLOCK=BLOCK, num_warps=w)
        xf = (x.float() + b.float()).requires_grad_(True)
        torch.nn.functional.gelu(xf, approximate="tanh").backward(dy.float())
        return close(dx, xf.grad, 2e-2, 1e-2)
    return fn


for M, N, BLOCK, w, sm80 in [(1024, 3072, 1024, 4, True), (512, 4096, 2048, 8, False)]:
    add("gelu_bwd_bias_fp16_n%d_b%d_w%d" % (N, BLOCK, w), gelu_bwd_case(M, N, BLOCK, w),
        dict(dtype="fp16", M=M, N=N, BLOCK=BLOCK, num_warps=w), sm80=sm80)


if __name__ == "__main__":
    run_all("misc")
