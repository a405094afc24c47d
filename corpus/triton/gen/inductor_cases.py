"""TorchInductor (torch.compile) kernels: a small transformer block (LayerNorm, causal
multi-head attention, GELU MLP) forward and backward, with scaled_dot_product_attention or
with explicit matmuls and softmax; flex attention forward and backward; a compiled AdamW step;
a compiled cross-entropy loss. Every compiled result is compared with eager PyTorch.

    python3 inductor_cases.py default                      # mode="default"
    python3 inductor_cases.py max-autotune-no-cudagraphs   # Triton GEMM templates
"""
import copy
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import DEV, all_close, case, run_all

MODE = sys.argv[1] if len(sys.argv) > 1 else "default"
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
import torch._inductor.config as icfg  # noqa: E402

icfg.fx_graph_cache = False
if MODE != "default":
    icfg.max_autotune_gemm_backends = "TRITON,ATEN"


class Block(nn.Module):
    def __init__(self, d=256, h=4, explicit=False):
        super().__init__()
        self.h = h
        self.explicit = explicit
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def attn(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v))
        if self.explicit:
            s = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C // self.h))
            mask = torch.ones(T, T, device=x.device, dtype=torch.bool).tril()
            s = s.masked_fill(~mask, float("-inf"))
            y = torch.softmax(s.float(), dim=-1).to(q.dtype) @ v
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def _tol(ref, frac):
    return max(frac * ref.abs().max().item(), 1e-6)


def _block_case(explicit, dtype):
    torch.manual_seed(0)
    m = Block(explicit=explicit).to(DEV, dtype)
    mc = copy.deepcopy(m)
    x = torch.randn(4, 128, 256, device=DEV, dtype=dtype)
    x1 = x.clone().requires_grad_(True)
    x2 = x.clone().requires_grad_(True)
    compiled = torch.compile(mc, mode=MODE)
    y_ref = m(x1)
    y = compiled(x2)
    y_ref.float().pow(2).mean().backward()
    y.float().pow(2).mean().backward()
    frac = 1e-3 if dtype == torch.float32 else 3e-2
    pairs = [(y, y_ref, _tol(y_ref, frac), frac, "out"), (x2.grad, x1.grad, _tol(x1.grad, frac), frac, "dx")]
    for (n, p1), (_, p2) in zip(m.named_parameters(), mc.named_parameters()):
        pairs.append((p2.grad, p1.grad, _tol(p1.grad, frac), frac, "d" + n))
    ok, detail = all_close(pairs)
    if ok:
        detail = "out, dx and %d parameter grads allclose (atol=%g*max|ref|, rtol=%g)" % (len(pairs) - 2, frac, frac)
    return ok, detail


if MODE == "default":
    @case("block_sdpa_fwd_bwd_fp32")
    def t_block_sdpa():
        return _block_case(False, torch.float32)

    @case("block_explicit_attn_fwd_bwd_fp32")
    def t_block_explicit():
        return _block_case(True, torch.float32)

    @case("block_explicit_attn_fwd_bwd_bf16")
    def t_block_explicit_bf16():
        return _block_case(True, torch.bfloat16)

    @case("flex_attention_causal_fwd_bwd")
    def t_flex_causal():
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
        torch.manual_seed(0)
        B, H, S, D = 2, 4, 256, 64

        def causal(b, h, q_idx, kv_idx):
            return q_idx >= kv_idx
        bm = create_block_mask(causal, B=None, H=None, Q_LEN=S, KV_LEN=S, device=DEV)
        flex = torch.compile(flex_attention)
        q, k, v = (torch.randn(B, H, S, D, device=DEV, dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
        out = flex(q, k, v, block_mask=bm)
        do = torch.randn_like(out)
        out.backward(do)
        qr, kr, vr = (t.detach().float().requires_grad_(True) for t in (q, k, v))
        ref = F.scaled_dot_product_attention(qr, kr, vr, is_causal=True)
        ref.backward(do.float())
        return all_close([(out, ref, 3e-2, 3e-2, "out"), (q.grad, qr.grad, 5e-2, 5e-2, "dq"),
                          (k.grad, kr.grad, 5e-2, 5e-2, "dk"), (v.grad, vr.grad, 5e-2, 5e-2, "dv")])

    @case("flex_attention_score_mod_fwd_bwd")
    def t_flex_score_mod():
        from torch.nn.attention.flex_attention import flex_attention
        torch.manual_seed(0)
        B, H, S, D = 2, 4, 256, 64

        def alibi(score, b, h, q_idx, kv_idx):
            return score - (h + 1) * 0.05 * (q_idx - kv_idx).abs()
        flex = torch.compile(flex_attention)
        q, k, v = (torch.randn(B, H, S, D, device=DEV, dtype=torch.float16, requires_grad=True) for _ in range(3))
        out = flex(q, k, v, score_mod=alibi)
        do = torch.randn_like(out)
        out.backward(do)
        qr, kr, vr = (t.detach().float().requires_grad_(True) for t in (q, k, v))
        idx = torch.arange(S, device=DEV)
        bias = -(torch.arange(H, device=DEV) + 1).view(1, H, 1, 1) * 0.05 * (idx[:, None] - idx[None, :]).abs()
        s = qr @ kr.transpose(-1, -2) / math.sqrt(D) + bias
        ref = torch.softmax(s, -1) @ vr
        ref.backward(do.float())
        return all_close([(out, ref, 2e-2, 2e-2, "out"), (q.grad, qr.grad, 3e-2, 3e-2, "dq"),
                          (k.grad, kr.grad, 3e-2, 3e-2, "dk"), (v.grad, vr.grad, 3e-2, 3e-2, "dv")])

    @case("adamw_step_foreach")
    def t_adamw():
        torch.manual_seed(0)
        shapes = [(256, 256), (1024,), (512, 128), (3, 5, 7)]
        p1 = [torch.randn(s, device=DEV, requires_grad=True) for s in shapes]
        p2 = [p.detach().clone().requires_grad_(True) for p in p1]
        for a, b in zip(p1, p2):
            g = torch.randn_like(a)
            a.grad = g.clone()
            b.grad = g.clone()
        o1 = torch.optim.AdamW(p1, lr=1e-2, weight_decay=0.1, foreach=True)
        o2 = torch.optim.AdamW(p2, lr=1e-2, weight_decay=0.1, foreach=True)

        @torch.compile
        def step():
            o2.step()
        for _ in range(3):
            o1.step()
            step()
        return all_close([(b, a, 1e-5, 1e-5, "p%d" % i) for i, (a, b) in enumerate(zip(p1, p2))])

    @case("cross_entropy_label_smoothing_fwd_bwd")
    def t_ce():
        torch.manual_seed(0)
        logits = torch.randn(512, 5000, device=DEV, requires_grad=True)
        tgt = torch.randint(0, 5000, (512,), device=DEV)

        def f(x):
            return F.cross_entropy(x * 1.5, tgt, label_smoothing=0.1)
        l1 = f(logits)
        g1, = torch.autograd.grad(l1, logits)
        l2 = torch.compile(f)(logits)
        g2, = torch.autograd.grad(l2, logits)
        return all_close([(l2, l1, 1e-5, 1e-5, "loss"), (g2, g1, 1e-7, 1e-4, "grad")])
else:
    @case("block_sdpa_fwd_bwd_bf16_max_autotune")
    def t_block_sdpa_ma():
        return _block_case(False, torch.bfloat16)

    @case("block_explicit_attn_fwd_bwd_fp32_max_autotune")
    def t_block_explicit_ma():
        return _block_case(True, torch.float32)


if __name__ == "__main__":
    run_all("inductor" if MODE == "default" else "inductor_maxautotune")
