import sys
ops = {
 'add_f32': ('f32','add.f32 %o, %a, %b;'),
 'div_rn_f32': ('f32','div.rn.f32 %o, %a, %b;'),
 'div_full_f32': ('f32','div.full.f32 %o, %a, %b;'),
 'div_approx_f32': ('f32','div.approx.f32 %o, %a, %b;'),
 'rcp_rn_f32': ('f32','rcp.rn.f32 %o, %a;'),
 'rcp_approx_f32': ('f32','rcp.approx.f32 %o, %a;'),
 'sqrt_rn_f32': ('f32','sqrt.rn.f32 %o, %a;'),
 'sqrt_approx_f32': ('f32','sqrt.approx.f32 %o, %a;'),
 'rsqrt_approx_f32': ('f32','rsqrt.approx.f32 %o, %a;'),
 'sin_approx_f32': ('f32','sin.approx.f32 %o, %a;'),
 'ex2_approx_f32': ('f32','ex2.approx.f32 %o, %a;'),
 'add_f64': ('f64','add.f64 %o, %a, %b;'),
 'div_rn_f64': ('f64','div.rn.f64 %o, %a, %b;'),
 'rcp_rn_f64': ('f64','rcp.rn.f64 %o, %a;'),
 'sqrt_rn_f64': ('f64','sqrt.rn.f64 %o, %a;'),
 'rsqrt_approx_f64': ('f64','rsqrt.approx.f64 %o, %a;'),
 'add_s32': ('s32','add.s32 %o, %a, %b;'),
 'div_s32': ('s32','div.s32 %o, %a, %b;'),
 'div_u32': ('u32','div.u32 %o, %a, %b;'),
 'rem_s32': ('s32','rem.s32 %o, %a, %b;'),
 'rem_u32': ('u32','rem.u32 %o, %a, %b;'),
 'add_s64': ('s64','add.s64 %o, %a, %b;'),
 'div_s64': ('s64','div.s64 %o, %a, %b;'),
 'div_u64': ('u64','div.u64 %o, %a, %b;'),
 'rem_s64': ('s64','rem.s64 %o, %a, %b;'),
 'rem_u64': ('u64','rem.u64 %o, %a, %b;'),
}
arch=sys.argv[1]; K=int(sys.argv[2])
out=['.version 8.0',f'.target {arch}','.address_size 64']
for name,(t,op) in ops.items():
    w = 8 if t[1:]=='64' else 4
    reg = '%fd' if t=='f64' else '%f' if t=='f32' else '%rl' if w==8 else '%r'
    decl = {'f64':'.f64','f32':'.f32'}.get(t, '.b64' if w==8 else '.b32')
    out.append(f'.visible .entry {name}(.param .u64 p)\n{{\n  .reg .b64 %rd<4>; .reg {decl} {reg}<4>; .reg .b32 %k<{K+2}>; .reg .b32 %acc<{K+2}>;')
    out.append('  ld.param.u64 %rd1, [p];\n  mov.u32 %k0, %tid.x;\n  mul.wide.u32 %rd2, %k0, 64;\n  add.s64 %rd1, %rd1, %rd2;')
    for i in range(K): out.append(f'  ld.volatile.global.u32 %k{i+1}, [%rd1+{4*i+256}];')
    ty={'f64':'f64','f32':'f32'}.get(t,t)
    out.append(f'  ld.volatile.global.{ty} {reg}0, [%rd1];\n  ld.volatile.global.{ty} {reg}1, [%rd1+8];')
    out.append('  '+op.replace('%o',reg+'2').replace('%a',reg+'0').replace('%b',reg+'1'))
    out.append(f'  st.volatile.global.{ty} [%rd1], {reg}2;')
    acc='%k1'
    for i in range(2,K+1): out.append(f'  xor.b32 %acc{i}, {acc}, %k{i};'); acc=f'%acc{i}'
    out.append(f'  st.volatile.global.u32 [%rd1+4], {acc};\n  ret;\n}}')
print('\n'.join(out))
