"""Normalisation family for the validation set: LayerNorm forward (several rows per program or
one wide row, kept in registers) and a persistent backward that accumulates dW/dB partials per
program in registers, finished by a column-sum kernel; RMSNorm forward fused with a residual add,
and its persistent backward; at several row widths, BLOCK sizes and num_warps."""
import torch
import triton
import triton.language as tl

from harness import DEV, add, all_close, launch, run_all

torch.manual_seed(99)


@triton.jit
def ln_fwd_kernel(X, W, B, Y, Mean, Rstd, M, N, s_x, eps, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * s_x + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, 1) / N
    xc = tl.where(mask, x - mean[:, None], 0.0)
    var = tl.sum(xc * xc, 1) / N
    rstd = tl.rsqrt(var + eps)
    w = tl.load(W + cols, mask=cols < N, other=0.0).to(tl.float32)
    b = tl.load(B + cols, mask=cols < N, other=0.0).to(tl.float32)
    y = xc * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(Y + rows[:, None] * s_x + cols[None, :], y.to(Y.dtype.element_ty), mask=mask)
    tl.store(Mean + rows, mean, mask=rows < M)
    tl.store(Rstd + rows, rstd, mask=rows < M)


@triton.jit
def ln_bwd_kernel(X, DY, W, Mean, Rstd, DX, DWp, DBp, M, N, s_x, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    G = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    cm = cols < N
    w = tl.load(W + cols, mask=cm, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    db = tl.zeros([BLOCK], dtype=tl.float32)
    for row in range(pid, M, G):
        x = tl.load(X + row * s_x + cols, mask=cm, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * s_x + cols, mask=cm, other=0.0).to(tl.float32)
        mean = tl.load(Mean + row)
        rstd = tl.load(Rstd + row)
        xhat = tl.where(cm, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, 0) / N
        c2 = tl.sum(wdy, 0) / N
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(DX + row * s_x + cols, dx.to(DX.dtype.element_ty), mask=cm)
        dw += dy * xhat
        db += dy
    tl.store(DWp + pid * N + cols, dw, mask=cm)
    tl.store(DBp + pid * N + cols, db, mask=cm)


@triton.jit
def colsum_kernel(P, Out, G, N, BG: tl.constexpr, BN: tl.constexpr):
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    rg = tl.arange(0, BG)
    acc = tl.zeros([BG, BN], dtype=tl.float32)
    for g0 in range(0, G, BG):
        r = g0 + rg
        acc += tl.load(P + r[:, None] * N + cols[None, :], mask=(r[:, None] < G) & (cols[None, :] < N), other=0.0)
    tl.store(Out + cols, tl.sum(acc, 0).to(Out.dtype.element_ty), mask=cols < N)


def ln_fwd_case(M, N, BLOCK, ROWS, w, dt):
    def fn():
        dtype = torch.float16 if dt == "fp16" else torch.float32
        x = torch.randn(M, N, device=DEV).to(dtype)
        wt = torch.randn(N, device=DEV).to(dtype)
        b = torch.randn(N, device=DEV).to(dtype)
        y = torch.empty_like(x)
        mean = torch.empty(M, device=DEV)
        rstd = torch.empty(M, device=DEV)
        launch(ln_fwd_kernel, (triton.cdiv(M, ROWS),), x, wt, b, y, mean, rstd, M, N, x.stride(0), 1e-5,
               BLOCK=BLOCK, ROWS=ROWS, num_warps=w)
        ref = torch.nn.functional.layer_norm(x.float(), (N,), wt.float(), b.float(), 1e-5)
        return all_close([(y, ref, 2e-2, 1e-2, "y"), (mean, x.float().mean(1), 1e-4, 1e-4, "mean")])
    return fn


for M, N, BLOCK, ROWS, w, dt, sm80 in [(1000, 768, 1024, 4, 4, "fp16", True), (256, 4096, 4096, 1, 8, "fp16", False),
                                      (256, 4096, 4096, 1, 4, "fp16", True), (128, 8192, 8192, 1, 8, "fp32", False),
                                      (2048, 1000, 1024, 8, 8, "fp32", True), (64, 12288, 16384, 1, 16, "fp16", False),
                                      (4096, 64, 64, 32, 4, "fp16", False)]:
    add("ln_fwd_%s_n%d_b%d_r%d_w%d" % (dt, N, BLOCK, ROWS, w), ln_fwd_case(M, N, BLOCK, ROWS, w, dt),
        dict(dtype=dt, M=M, N=N, BLOCK_N=BLOCK, ROWS=ROWS, num_warps=w), sm80=sm80)


def ln_bwd_case(M, N, BLOCK, G, w, dt):
    def fn():
        dtype = torch.float16 if dt == "fp16" else torch.float32
        x = torch.randn(M, N, device=DEV).to(dtype)
        wt = torch.randn(N, device=DEV).to(dtype)
        b = torch.randn(N, device=DEV).to(dtype)
        dy = torch.randn(M, N, device=DEV).to(dtype)
        xf = x.float().requires_grad_(True)
        wf = wt.float().requires_grad_(True)
        bf = b.float().requires_grad_(True)
        ref = torch.nn.functional.layer_norm(xf, (N,), wf, bf, 1e-5)
        ref.backward(dy.float())
        mean = x.float().mean(1)
        rstd = torch.rsqrt(x.float().var(1, unbiased=False) + 1e-5)
        dx = torch.empty_like(x)
        dwp = torch.empty(G, N, device=DEV)
        dbp = torch.empty(G, N, device=DEV)
        launch(ln_bwd_kernel, (G,), x, dy, wt, mean, rstd, dx, dwp, dbp, M, N, x.stride(0), BLOCK=BLOCK,
               num_warps=w)
        dw = torch.empty(N, device=DEV)
        db = torch.empty(N, device=DEV)
        launch(colsum_kernel, (triton.cdiv(N, 128),), dwp, dw, G, N, BG=32, BN=128, num_warps=4)
        launch(colsum_kernel, (triton.cdiv(N, 128),), dbp, db, G, N, BG=32, BN=128, num_warps=4)
        return all_close([(dx, xf.grad, 5e-2, 1e-2, "dx"), (dw, wf.grad, 5e-2, 1e-3, "dw"),
                          (db, bf.grad, 5e-2, 1e-3, "db")])
    return fn


for M, N, BLOCK, G, w, dt, sm80 in [(2048, 1024, 1024, 128, 4, "fp16", True), (1024, 4096, 4096, 132, 8, "fp16", False),
                                   (1024, 4096, 4096, 64, 4, "fp32", True), (512, 2000, 2048, 96, 8, "fp32", False)]:
    add("ln_bwd_%s_n%d_b%d_g%d_w%d" % (dt, N, BLOCK, G, w), ln_bwd_case(M, N, BLOCK, G, w, dt),
        dict(dtype=dt, M=M, N=N, BLOCK_N=BLOCK, programs=G, num_warps=w), sm80=sm80)


@triton.jit
def rms_fwd_kernel(X, R, W, Y, Rout, Rstd, N, eps, BLOCK: tl.constexpr, HAS_RES: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cm = cols < N
    x = tl.load(X + row * N + cols, mask=cm, other=0.0).to(tl.float32)
    if HAS_RES:
        x += tl.load(R + row * N + cols, mask=cm, other=0.0).to(tl.float32)
        tl.store(Rout + row * N + cols, x.to(Rout.dtype.element_ty), mask=cm)
    rstd = tl.rsqrt(tl.sum(x * x, 0) / N + eps)
    w = tl.load(W + cols, mask=cm, other=0.0).to(tl.float32)
    tl.store(Y + row * N + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=cm)
    tl.store(Rstd + row, rstd)


@triton.jit
def rms_bwd_kernel(X, DY, W, Rstd, DX, DWp, M, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    G = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    cm = cols < N
    w = tl.load(W + cols, mask=cm, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    for row in range(pid, M, G):
        x = tl.load(X + row * N + cols, mask=cm, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * N + cols, mask=cm, other=0.0).to(tl.float32)
        rstd = tl.load(Rstd + row)
        xhat = x * rstd
        wdy = w * dy
        c = tl.sum(xhat * wdy, 0) / N
        dx = (wdy - xhat * c) * rstd
        tl.store(DX + row * N + cols, dx.to(DX.dtype.element_ty), mask=cm)
        dw += dy * xhat
    tl.store(DWp + pid * N + cols, dw, mask=cm)


def rms_fwd_case(M, N, BLOCK, w, res, dt):
    def fn():
        dtype = torch.float16 if dt == "fp16" else torch.bfloat16
        x = torch.randn(M, N, device=DEV).to(dtype)
        r = torch.randn(M, N, device=DEV).to(dtype)
        wt = torch.randn(N, device=DEV).to(dtype)
        y = torch.empty_like(x)
        rout = torch.empty_like(x)
        rstd = torch.empty(M, device=DEV)
        launch(rms_fwd_kernel, (M,), x, r, wt, y, rout, rstd, N, 1e-6, BLOCK=BLOCK, HAS_RES=res, num_warps=w)
        h = x.float() + (r.float() if res else 0)
        ref = h * torch.rsqrt(h.pow(2).mean(1, keepdim=True) + 1e-6) * wt.float()
        pairs = [(y, ref, 5e-2, 2e-2, "y")]
        if res:
            pairs.append((rout, h, 1e-2, 1e-2, "residual"))
        return all_close(pairs)
    return fn


for M, N, BLOCK, w, res, dt, sm80 in [(512, 4096, 4096, 8, True, "fp16", True), (512, 4096, 4096, 4, False, "bf16", False),
                                     (256, 5120, 8192, 8, True, "bf16", True), (1024, 1536, 2048, 4, True, "fp16", False),
                                     (128, 16384, 16384, 16, False, "fp16", False)]:
    add("rms_fwd_%s_n%d_b%d_w%d%s" % (dt, N, BLOCK, w, "_res" if res else ""), rms_fwd_case(M, N, BLOCK, w, res, dt),
        dict(dtype=dt, M=M, N=N, BLOCK_N=BLOCK, num_warps=w, residual=res), sm80=sm80)


def rms_bwd_case(M, N, BLOCK, G, w):
    def fn():
        x = torch.randn(M, N, device=DEV).half()
        wt = torch.randn(N, device=DEV).half()
        dy = torch.randn(M, N, device=DEV).half()
        xf = x.float().requires_grad_(True)
        wf = wt.float().requires_grad_(True)
        ref = xf * torch.rsqrt(xf.pow(2).mean(1, keepdim=True) + 1e-6) * wf
        ref.backward(dy.float())
        rstd = torch.rsqrt(x.float().pow(2).mean(1) + 1e-6)
        dx = torch.empty_like(x)
        dwp = torch.empty(G, N, device=DEV)
        launch(rms_bwd_kernel, (G,), x, dy, wt, rstd, dx, dwp, M, N, BLOCK=BLOCK, num_warps=w)
        dw = torch.empty(N, device=DEV)
        launch(colsum_kernel, (triton.cdiv(N, 64),), dwp, dw, G, N, BG=64, BN=64, num_warps=4)
        return all_close([(dx, xf.grad, 5e-2, 1e-2, "dx"), (dw, wf.grad, 5e-2, 1e-3, "dw")])
    return fn


for M, N, BLOCK, G, w, sm80 in [(2048, 2048, 2048, 132, 4, True), (1024, 4096, 4096, 132, 8, False),
                               (512, 8192, 8192, 66, 8, True)]:
    add("rms_bwd_fp16_n%d_b%d_g%d_w%d" % (N, BLOCK, G, w), rms_bwd_case(M, N, BLOCK, G, w),
        dict(dtype="fp16", M=M, N=N, BLOCK_N=BLOCK, programs=G, num_warps=w), sm80=sm80)


if __name__ == "__main__":
    run_all("norms")
