#!/usr/bin/env python3
"""Generate tu/ptx_<name>.cu: one __global__ kernel per cuda::ptx wrapper variant.

CCCL's generated wrappers (cuda/__ptx/instructions/generated/*.h) document every overload in a
comment block: the PTX form with its minimum SM ("SM_90", "SM_100a"), the `.variant = { ... }`
sets and the C++ signature. This script turns each block into calls that instantiate every
variant (each value of Sem/Scope/Kind/Cta_Group/Op/Space/Type picks a different `if constexpr`
arm, i.e. a different asm statement), so record.py sees the asm nvcc emits for each of them.

Arguments are loaded from a kernel parameter buffer at run time so nothing folds away; `"n"`
operands (n32_t<N>) get literal template arguments; results are stored so no asm is deleted.
Each call is guarded by the architecture the comment names, so every pass (sm_80, sm_90a,
sm_100a) compiles the subset it can emit.

Usage: gen_ptx_tus.py [--include /usr/local/cuda/include]  (rewrites tu/ptx_*.cu)
"""
import argparse
import glob
import itertools
import os
import re
import sys

SCALAR_TYPES = {
    'B8': 'uint8_t', 'B16': 'uint16_t', 'B32': 'uint32_t', 'B64': 'uint64_t', 'B128': 'uint4',
}
PTX_TYPE = {
    '.b32': 'uint32_t', '.b64': 'uint64_t', '.u32': 'uint32_t', '.s32': 'int32_t', '.u64': 'uint64_t',
    '.s64': 'int64_t', '.f16': '__half', '.bf16': '__nv_bfloat16', '.f32': 'float', '.f64': 'double',
}
# template parameter kind -> (the `.set` line that lists its values, value -> C++ object)
ENUM_PARAMS = {
    'dot_scope': ('.scope', lambda v: 'cuda::ptx::scope_' + v[1:]),
    'dot_sem': ('.sem', lambda v: 'cuda::ptx::sem_' + v[1:]),
    'dot_kind': ('.kind', lambda v: 'cuda::ptx::kind_' + v.split('::')[1]),
    'dot_cta_group': ('.cta_group', lambda v: 'cuda::ptx::cta_group_' + v.split('::')[1]),
    'dot_op': ('.op', lambda v: 'cuda::ptx::op_' + v[1:] + ('_op' if v in ('.and', '.or', '.xor') else '')),
    'dot_space': ('.space', lambda v: {'.global': 'cuda::ptx::space_global', '.shared::cluster': 'cuda::ptx::space_cluster',
                                       '.shared::cta': 'cuda::ptx::space_shared'}[v]),
}
# "n" immediates: any value compiles; these keep ptxas's range checks happy.
N32_VALUE = {'st_bulk': 0, 'fence_proxy_tensormap_generic': 128, 'tensormap_cp_fenceproxy': 128}
N32_DEFAULT = 1

SIG_RE = re.compile(r'template\s*<(.*?)>\s*__device__ static inline (.*?)\b(\w+)\((.*?)\);', re.S)


def split_top(text, sep=','):
    """Split on `sep` outside <> and () brackets."""
    parts, depth, cur = [], 0, ''
    for ch in text:
        if ch in '<(':
            depth += 1
        elif ch in '>)':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [re.sub(r'\s+', ' ', p).strip() for p in parts]


def guard_for(sms):
    """#if condition for the SM list of a comment ("SM_90", "SM_90a", "SM_100f"); any one suffices."""
    if not sms:
        return '1'
    conds = []
    for sm in sms:
        m = re.fullmatch(r'SM_(\d+)([af]?)', sm)
        num, suffix = int(m.group(1)), m.group(2)
        if suffix == 'a':
            conds.append(f'defined(__CUDA_ARCH_FEAT_SM{num}_ALL)')
        elif suffix == 'f':
            conds.append(f'(defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == {num * 10})'
                         f' || defined(__CUDA_ARCH_FEAT_SM{num}_ALL)')
        else:
            conds.append(f'__CUDA_ARCH__ >= {num * 10}')
    return ' || '.join(f'({c})' for c in conds)


class Block:
    def __init__(self, header, text):
        self.header = header
        self.sms = re.findall(r'SM_\d+[af]?', text.split('template')[0])
        self.sets = {}
        for m in re.finditer(r'^// (\.\w+)\s*=\s*\{(.*?)\}', text, re.M):
            self.sets[m.group(1)] = [v.strip() for v in m.group(2).split(',')]
        s = SIG_RE.search(text)
        self.tparams = split_top(s.group(1))
        self.ret = s.group(2).strip()
        self.name = s.group(3)
        self.params = split_top(s.group(4))

    def variants(self):
        """Yield dicts: template parameter name -> C++ (type name or value expression)."""
        axes = []
        for tp in self.tparams:
            m = re.fullmatch(r'typename (B\d+)', tp)
            if m:
                axes.append([(m.group(1), SCALAR_TYPES[m.group(1)])])
                continue
            if tp == 'typename Type':
                axes.append([('Type', PTX_TYPE[v]) for v in self.sets['.type']])
                continue
            m = re.fullmatch(r'cuda::ptx::(dot_\w+) (\w+)', tp)
            if m:
                setname, conv = ENUM_PARAMS[m.group(1)]
                axes.append([(m.group(2), conv(v)) for v in self.sets[setname]])
                continue
            if tp == 'int N32':
                axes.append([('N32', str(N32_VALUE.get(self.name, N32_DEFAULT)))])
        for combo in itertools.product(*axes):
            yield dict(combo)


def subst_types(t, env):
    for k, v in env.items():
        if k.startswith('B') or k == 'Type':
            t = re.sub(rf'\b{k}\b', v, t)
    return t


def emit_call(block, env, kname):
    """Kernel text for one variant."""
    pre, args, post = [], [], []
    slot = [0]

    def nxt():
        slot[0] += 1
        return slot[0] - 1

    for p in block.params:
        p = subst_types(p, env)
        m = re.fullmatch(r'cuda::ptx::(\w+)_t<(\w+)>(?: \w+)?', p)
        if m:
            val = env[m.group(2)]
            args.append(f'cuda::ptx::n32_t<{val}>{{}}' if m.group(1) == 'n32' else val)
            continue
        m = re.fullmatch(r'cuda::ptx::(\w+)_t', p)
        if m:
            args.append('cuda::ptx::' + m.group(1))
            continue
        m = re.fullmatch(r'(const )?([\w:]+) \(&(\w+)\)\[(\d+)\]', p)
        if m:
            const, ty, nm, n = m.groups()
            var = f'a_{nm}'
            if const:
                pre.append(f'  {ty} {var}[{n}];')
                pre.append(f'  for (int i = 0; i < {n}; ++i) {var}[i] = ld<{ty}>(b, {nxt()} + i);')
                slot[0] += int(n)
            else:
                pre.append(f'  {ty} {var}[{n}];')
                post.append(f'  for (int i = 0; i < {n}; ++i) st(o, 1 + i, {var}[i]);')
            args.append(var)
            continue
        m = re.fullmatch(r'(const )?([\w:]+)\s*\*(?: \w+)?', p)
        if m:
            ty = m.group(2)
            args.append(f'reinterpret_cast<{"const " if m.group(1) else ""}{ty}*>(b + 64 * {nxt()})')
            continue
        m = re.fullmatch(r'(const )?([\w:]+)(&)?(?: \w+)?', p)
        if m:
            ty = m.group(2)
            args.append(f'ld<{ty}>(b, {nxt()})')
            continue
        raise ValueError(f'{block.header}: {block.name}: cannot pass parameter {p!r}')
    call = f'cuda::ptx::{block.name}'
    ret = subst_types(block.ret, env)
    # a type parameter that appears only in the return type cannot be deduced: name it
    for tp in block.tparams:
        m = re.fullmatch(r'typename (B\d+)', tp)
        if m and not any(re.search(rf'\b{m.group(1)}\b', p) for p in block.params):
            call += f'<{env[m.group(1)]}>'
            break
    body = '\n'.join(pre)
    expr = f'{call}({", ".join(args)})'
    if ret == 'void':
        body += f'\n  {expr};'
    else:
        body += f'\n  st(o, 0, {expr});'
    body += '\n' + '\n'.join(post)
    return f'__global__ void {kname}(unsigned char* b, unsigned char* o)\n{{\n{body.strip(chr(10))}\n}}\n'


PRELUDE = '''\
// Generated by gen_ptx_tus.py from the comment blocks of
// cuda/__ptx/instructions/generated/{header}: one kernel per wrapper variant, so that
// record.py can collect the inline asm nvcc emits for each. Do not edit; re-run the script.
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/ptx>

template <class T>
__device__ T ld(const unsigned char* b, int slot)
{{
  return *reinterpret_cast<const T*>(b + 64 * slot);
}}
template <class T>
__device__ void st(unsigned char* o, int slot, const T& v)
{{
  *reinterpret_cast<T*>(o + 64 * slot) = v;
}}
'''


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--include', default='/usr/local/cuda/include')
    args = ap.parse_args()
    gen_dir = os.path.join(args.include, 'cccl/cuda/__ptx/instructions/generated')
    if not os.path.isdir(gen_dir):
        print(f'skipped: no {gen_dir}')
        return 0
    out_dir = os.path.join(here, 'tu')
    os.makedirs(out_dir, exist_ok=True)
    for old in glob.glob(os.path.join(out_dir, 'ptx_*.cu')):
        os.remove(old)
    total = 0
    for path in sorted(glob.glob(os.path.join(gen_dir, '*.h'))):
        header = os.path.basename(path)
        stem = header[:-2]
        text = open(path).read()
        kernels = []
        for i, m in enumerate(re.finditer(r'^/\*\n(.*?)^\*/', text, re.S | re.M)):
            block = Block(header, m.group(1))
            for j, env in enumerate(block.variants()):
                kname = f'k_{stem}_{i}_{j}'
                kernels.append(f'#if {guard_for(block.sms)}\n' + emit_call(block, env, kname) + '#endif\n')
        if not kernels:
            continue
        with open(os.path.join(out_dir, f'ptx_{stem}.cu'), 'w') as f:
            f.write(PRELUDE.format(header=header))
            f.write('\n' + '\n'.join(kernels))
        total += len(kernels)
    print(f'{total} kernels')
    return 0


if __name__ == '__main__':
    sys.exit(main())
