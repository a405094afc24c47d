#!/usr/bin/env node
// Writes ptx.tmLanguage.json, the TextMate grammar (scope source.ptx) of the VS Code extension.
// The JSON is generated because its keyword lists recur in several rules and its regexes are
// unreadable once escaped for JSON; edit this file, run `node syntaxes/generate.mjs`, and commit
// both. tests/clients/vscode-unit checks that the JSON is current and checks these lists against
// the ISA tables in core/isa/*.def.
//
//   node generate.mjs          rewrite ptx.tmLanguage.json next to this file
//   node generate.mjs --check  exit 1 when ptx.tmLanguage.json differs from what this writes
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const words = (text) => text.trim().split(/\s+/);

// PTX ISA Table 2 (§4.3.2): the 135 instruction keywords, as in core/isa/Opcodes.def.
export const OPCODES = words(`
  abs activemask add addc alloca and applypriority atom bar barrier bfe bfi bfind bmsk bra brev
  brkpt brx call clusterlaunchcontrol clz cnot copysign cos cp createpolicy cvt cvta discard div
  dp2a dp4a elect ex2 exit fence fma fns getctarank griddepcontrol isspacep istypep ld ldmatrix
  ldu lg2 lop3 mad mad24 madc mapa match max mbarrier membar min mma mov movmatrix mul mul24
  multimem nanosleep neg not or pmevent popc prefetch prefetchu prmt rcp red redux rem ret rsqrt
  sad selp set setmaxnreg setp shf shfl shl shr sin slct sqrt st stackrestore stacksave stmatrix
  sub subc suld suq sured sust szext tanh tcgen05 tensormap testp tex tld4 trap txq vabsdiff
  vabsdiff2 vabsdiff4 vadd vadd2 vadd4 vavrg2 vavrg4 vmad vmax vmax2 vmax4 vmin vmin2 vmin4 vote
  vset vset2 vset4 vshl vshr vsub vsub2 vsub4 wgmma wmma xor`);

// call and the branches have rules of their own (callee, label operand). Longest first, so that
// `vadd4` is never read as `vadd` followed by garbage.
const OPS = OPCODES.filter((o) => !['call', 'bra', 'brx'].includes(o))
  .sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));

// Directives other than state spaces, linkage, .entry/.func and .align/.ptr/.attribute.
const DIRECTIVES = words(`
  version target address_size file loc pragma alias section callprototype calltargets
  branchtargets maxntid reqntid minnctapersm maxnctapersm maxnreg noreturn reqnctapercluster
  explicitcluster maxclusterrank blocksareclusters abi_preserve_control abi_preserve`);
const SPACES = words('reg sreg const global local param shared tex');
const LINKAGE = words('visible extern weak common');
// Special registers (core/isa/SpecialRegisters.def), a prefix after the names it prefixes.
const SPECIAL = words(`
  tid ntid laneid warpid nwarpid ctaid nctaid smid nsmid gridid is_explicit_cluster clusterid
  nclusterid cluster_ctaid cluster_nctaid cluster_ctarank cluster_nctarank lanemask_eq
  lanemask_le lanemask_lt lanemask_ge lanemask_gt clock_hi clock64 clock globaltimer_lo
  globaltimer_hi globaltimer reserved_smem_offset_begin reserved_smem_offset_end
  reserved_smem_offset_cap total_smem_size aggr_smem_size dynamic_smem_size current_graph_exec`);

const R = String.raw;
const END = R`(?![\w$])`;        // a PTX name continues with letters, digits, _ and $
const START = R`(?<![\w$%.])`;   // not the tail of a name, a register or a modifier
const IDENT = R`[A-Za-z_$][\w$]*`;
const MODIFIER = R`\.(?:[A-Za-z_$]|[0-9]+[A-Za-z_$])[\w$]*(?:::[\w$]+)*`; // .u32 .shared::cta .2d .L2::128B
const TYPE = R`\.(?:(?:[bsu](?:8|16|32|64|128)|f16|f32|f64|bf16|tf32|e4m3|e5m2|e2m1|e2m3|e3m2|ue8m0|ue4m3|s2f6)`
  + R`(?:x[248])?|pred|texref|samplerref|surfref|b4x16(?:_p64)?|b6x16_p32|b6p2x16)`;
const COMPONENT = R`\.(?:[xyzwrgba]|b[0-7]{1,4}|h[0-3]{1,2})`;
const alt = (list) => `(?:${list.join('|')})`;

const repo = {};

repo.comments = { patterns: [
  { name: 'comment.line.double-slash.ptx', match: R`(//).*$`,
    captures: { 1: { name: 'punctuation.definition.comment.ptx' } } },
  { name: 'comment.block.ptx', begin: R`/\*`, end: R`\*/`,
    beginCaptures: { 0: { name: 'punctuation.definition.comment.begin.ptx' } },
    endCaptures: { 0: { name: 'punctuation.definition.comment.end.ptx' } } },
] };

repo.preprocessor = { patterns: [
  { name: 'meta.preprocessor.include.ptx',
    begin: R`^\s*(#)\s*(include|import)\b`, end: '$',
    beginCaptures: { 1: { name: 'punctuation.definition.directive.ptx' },
      2: { name: 'keyword.control.directive.preprocessor.include.ptx' } },
    patterns: [
      { name: 'string.quoted.double.include.ptx', match: R`"[^"\n]*"` },
      { name: 'string.quoted.other.lt-gt.include.ptx', match: R`<[^>\n]*>` },
      { include: '#comments' }] },
  { name: 'meta.preprocessor.ptx',
    begin: R`^\s*(#)\s*([A-Za-z_]\w*)?`, end: R`(?<!\\)$`,
    beginCaptures: { 1: { name: 'punctuation.definition.directive.ptx' },
      2: { name: 'keyword.control.directive.preprocessor.ptx' } },
    patterns: [{ include: '#comments' }, { include: '#strings' }, { include: '#numbers' },
      { name: 'entity.name.function.preprocessor.ptx', match: IDENT }] },
  // Old nvcc wrote DWARF as `@@DWARF` lines; ptxas ignores what follows.
  { name: 'meta.preprocessor.dwarf.ptx', match: R`^\s*(@@DWARF)(.*)$`,
    captures: { 1: { name: 'keyword.control.directive.dwarf.ptx' }, 2: { name: 'string.unquoted.dwarf.ptx' } } },
] };

repo.strings = { patterns: [
  // ptxas knows no escapes and no multi-line strings.
  { name: 'string.quoted.double.ptx', match: R`(")[^"\n]*(")`,
    captures: { 1: { name: 'punctuation.definition.string.begin.ptx' },
      2: { name: 'punctuation.definition.string.end.ptx' } } },
] };

repo.numbers = { patterns: [
  // Hex floats are exact bit patterns: 8 digits for .f32, 16 for .f64.
  { name: 'constant.numeric.float.hexadecimal.ptx', match: R`(?<![\w$])0[fF][0-9a-fA-F]{8}` + END },
  { name: 'constant.numeric.float.hexadecimal.ptx', match: R`(?<![\w$])0[dD][0-9a-fA-F]{16}` + END },
  { name: 'constant.numeric.float.decimal.ptx',
    match: R`(?<![\w$])(?:[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)` + END },
  { name: 'constant.numeric.integer.hexadecimal.ptx', match: R`(?<![\w$])0[xX][0-9a-fA-F]+U?` + END },
  { name: 'constant.numeric.integer.binary.ptx', match: R`(?<![\w$])0[bB][01]+U?` + END },
  { name: 'constant.numeric.integer.octal.ptx', match: R`(?<![\w$])0[0-7]+U?` + END },
  { name: 'constant.numeric.integer.decimal.ptx', match: R`(?<![\w$])(?:[1-9][0-9]*|0)U?` + END },
  { name: 'invalid.illegal.numeric.ptx', match: R`(?<![\w$])[0-9][\w$]*` },
] };

repo.registers = { patterns: [
  // `%r<100>` declares %r0..%r99.
  { match: R`(%[\w$]+)(<)\s*([0-9]+)\s*(>)`,
    captures: { 1: { name: 'variable.other.register.ptx' },
      2: { name: 'punctuation.definition.register-count.begin.ptx' },
      3: { name: 'constant.numeric.integer.decimal.ptx' },
      4: { name: 'punctuation.definition.register-count.end.ptx' } } },
  { match: `(%(?:${SPECIAL.join('|')}` + R`|envreg[0-9]+|pm[0-7](?:_64)?|reserved_smem_offset_[0-9]+))` + END + `(${COMPONENT})?` + END,
    captures: { 1: { name: 'support.variable.special-register.ptx' },
      2: { name: 'variable.other.property.component.ptx' } } },
  { match: R`(%[\w$]+)(` + COMPONENT + ')?' + END,
    captures: { 1: { name: 'variable.other.register.ptx' },
      2: { name: 'variable.other.property.component.ptx' } } },
  { name: 'support.constant.warp-size.ptx', match: START + 'WARP_SZ' + END },
] };

repo['modifier-chain'] = { patterns: [
  { name: 'storage.modifier.state-space.ptx', match: R`\.` + alt(SPACES) + R`(?:::[\w$]+)*` + END },
  // `.f32::off` (a sub-qualified type-like word) is one modifier, not a type and a rest.
  { name: 'storage.type.ptx', match: TYPE + END + '(?!::)' },
  { name: 'storage.type.vector.ptx', match: R`\.v(?:2|4|8)` + END + '(?!::)' },
  { name: 'entity.other.attribute-name.modifier.ptx', match: MODIFIER },
] };

// A dotted keyword may be glued to the one before it (`.reg.b32`, `.ptr.global.align 16`), so
// these rules have no look-behind; names and registers before them are consumed first.
repo['dotted-keywords'] = { patterns: [
  { name: 'keyword.control.directive.ptx', match: R`\.` + alt(DIRECTIVES) + END },
  { name: 'storage.type.function.ptx', match: R`\.(?:entry|func)` + END },
  { name: 'storage.modifier.linkage.ptx', match: R`\.` + alt(LINKAGE) + END },
  { name: 'storage.modifier.state-space.ptx', match: R`\.` + alt(SPACES) + R`(?:::[\w$]+)*` + END },
  { name: 'storage.modifier.ptx', match: R`\.(?:align|ptr|attribute)` + END },
  { name: 'storage.type.ptx', match: TYPE + END },
  { name: 'storage.type.vector.ptx', match: R`\.v(?:2|4|8)` + END },
  // DWARF section names, also operands of section data lines (`.b32 .debug_abbrev`).
  { name: 'entity.name.section.ptx', match: R`\.debug_[\w$]+` },
  // Anything else dotted: an attribute (`.managed`, `.unified`) or a directive this grammar does
  // not know yet; the server reports the unknown ones.
  { name: 'entity.other.attribute-name.ptx', match: MODIFIER },
] };

repo['target-directive'] = {
  match: START + R`(\.target)((?:\s*,?\s*[A-Za-z_][\w$]*)+)`,
  captures: { 1: { name: 'keyword.control.directive.ptx' },
    2: { patterns: [
      { name: 'support.constant.target.ptx', match: R`[A-Za-z_][\w$]*` },
      { name: 'punctuation.separator.comma.ptx', match: ',' }] } } };

repo['label-definition'] = {
  // A label starts its line (ptxas allows several in a row, and a statement after one).
  match: R`^\s*(%?` + IDENT + R`|%[\w$]+)\s*(:)(?!:)`,
  captures: { 1: { name: 'entity.name.label.ptx' }, 2: { name: 'punctuation.separator.label.ptx' } } };

repo.guard = {
  name: 'meta.guard.ptx',
  match: R`(@)\s*(!)?\s*(%?[A-Za-z_$][\w$]*)`,
  captures: { 1: { name: 'keyword.operator.guard.ptx' },
    2: { name: 'keyword.operator.logical.negation.ptx' },
    3: { patterns: [{ include: '#registers' }, { name: 'variable.other.predicate.ptx', match: IDENT }] } } };

// Statements are regions that end at their `;`, so that a name in operand or declarator position
// (a texture called `tex`, a function called `add`) is never read as an opcode. A statement may
// span lines (nvcc splits calls), but one whose `;` is missing while it is typed must not colour
// the rest of the file: it also ends before a line that plainly starts another statement.
const NEXT_STATEMENT = R`(?=^\s*(?:@|\}|\.[A-Za-z_]|(?:%?` + IDENT + R`|%[\w$]+)\s*:(?!:)|(?:` + OPCODES.join('|')
  + R`)(?:\.[A-Za-z_]|\s*;|\s+(?![\s,;)\]}]))))`;
const STATEMENT_END = '(;)|' + NEXT_STATEMENT;
const END_CAPTURES = { 1: { name: 'punctuation.terminator.statement.ptx' } };
const chainCaptures = () => ({ 1: { name: 'support.function.instruction.ptx' },
  2: { patterns: [{ include: '#modifier-chain' }] } });

repo['call-instruction'] = {
  // nvcc spreads calls over several lines: `call.uni (retval0),\n\tfoo,\n\t(\n\tparam0\n\t);`.
  // The callee is the name outside parentheses; a prototype name may follow the arguments.
  name: 'meta.call.ptx',
  begin: START + '(call)((?:' + MODIFIER + ')*)' + END,
  beginCaptures: chainCaptures(),
  end: STATEMENT_END, endCaptures: END_CAPTURES,
  patterns: [
    { include: '#comments' },
    { name: 'meta.parens.ptx', begin: R`\(`, end: R`\)`,
      beginCaptures: { 0: { name: 'punctuation.section.parens.begin.ptx' } },
      endCaptures: { 0: { name: 'punctuation.section.parens.end.ptx' } },
      patterns: [{ include: '#operands' }] },
    { include: '#registers' },
    { include: '#sink' },
    { name: 'entity.name.function.ptx', match: IDENT },
    { include: '#punctuation' },
  ] };

repo['branch-instruction'] = {
  // `bra $L__BB0_2;`, `bra.uni LOOP;`, `brx.idx %r1, $L_table;`: every plain name is a label.
  name: 'meta.instruction.ptx',
  begin: START + '(bra|brx)((?:' + MODIFIER + ')*)' + END,
  beginCaptures: chainCaptures(),
  end: STATEMENT_END, endCaptures: END_CAPTURES,
  patterns: [
    { include: '#comments' },
    { include: '#registers' },
    { name: 'entity.name.label.ptx', match: R`(?<![\w$%.])` + IDENT },
    { include: '#operands' },
  ] };

repo.instruction = { patterns: [
  { name: 'meta.instruction.ptx',
    begin: START + '(' + OPS.join('|') + ')((?:' + MODIFIER + ')*)' + END,
    beginCaptures: chainCaptures(),
    end: STATEMENT_END, endCaptures: END_CAPTURES,
    patterns: [{ include: '#operands' }] },
  // An opcode this grammar does not know (a newer PTX ISA): a name with modifiers that starts its
  // line. The look-ahead keeps it off call and branches, whose rules start after the indentation
  // and would otherwise lose to this one, which starts at the line's first column.
  { name: 'meta.instruction.ptx',
    begin: R`^\s*(?!(?:call|bra|brx)(?![\w$]))([a-z][a-z0-9_]*)((?:` + MODIFIER + ')+)' + END + R`(?!\s*:)`,
    beginCaptures: chainCaptures(),
    end: STATEMENT_END, endCaptures: END_CAPTURES,
    patterns: [{ include: '#operands' }] },
] };

const DECLARATION_END = R`(;)|(?=^\s*(?:\}|@|\.(?:entry|func|visible|extern|weak|common|version|target|address_size|section|`
  + SPACES.join('|') + R`)(?![\w$])|(?:` + OPCODES.join('|') + R`)(?:\.[A-Za-z_]|\s*;)))`;

repo.declaration = {
  // `.reg .b32 %r<6>;`, `.global .align 4 .b8 buf[16] = {1, 2, 3};` (initializers may span lines).
  name: 'meta.declaration.ptx',
  begin: R`(?<![\w$%])(\.(?:` + SPACES.join('|') + R`))(?![\w$])`,
  beginCaptures: { 1: { name: 'storage.modifier.state-space.ptx' } },
  end: DECLARATION_END, endCaptures: END_CAPTURES,
  patterns: [{ include: '#operands' }] };

repo['directive-statements'] = { patterns: [
  { name: 'meta.directive.branchtargets.ptx',
    begin: R`(\.branchtargets)` + END, beginCaptures: { 1: { name: 'keyword.control.directive.ptx' } },
    end: STATEMENT_END, endCaptures: END_CAPTURES,
    patterns: [{ include: '#comments' },
      { name: 'entity.name.label.ptx', match: R`(?<![\w$%.])` + IDENT },
      { include: '#punctuation' }] },
  { name: 'meta.directive.calltargets.ptx',
    begin: R`(\.(?:calltargets|alias))` + END, beginCaptures: { 1: { name: 'keyword.control.directive.ptx' } },
    end: STATEMENT_END, endCaptures: END_CAPTURES,
    patterns: [{ include: '#comments' },
      { name: 'entity.name.function.ptx', match: R`(?<![\w$%.])` + IDENT },
      { include: '#punctuation' }] },
  { name: 'meta.directive.ptx',
    begin: R`(\.(?:callprototype|pragma))` + END, beginCaptures: { 1: { name: 'keyword.control.directive.ptx' } },
    end: STATEMENT_END, endCaptures: END_CAPTURES,
    patterns: [{ include: '#operands' }] },
] };

repo.section = {
  // `.section .debug_info { .b32 .debug_abbrev  .b8 1, 0 ... }`: data lines without `;`.
  name: 'meta.section.ptx',
  begin: R`(\.section)\s*(` + MODIFIER + ')?',
  beginCaptures: { 1: { name: 'keyword.control.directive.ptx' }, 2: { name: 'entity.name.section.ptx' } },
  end: R`\}`,
  endCaptures: { 0: { name: 'punctuation.section.braces.end.ptx' } },
  patterns: [{ include: '#label-definition' }, { include: '#operands' }] };

repo['function-header'] = {
  // `.visible .entry name(...)`, `.func (.param .b32 r) name(...)`: the first name outside
  // parentheses is the function's; the region ends at the body, a `;`, or the next module item.
  name: 'meta.function.header.ptx',
  begin: START + R`(\.(?:entry|func))` + END,
  beginCaptures: { 1: { name: 'storage.type.function.ptx' } },
  end: R`(?=[;{}])|(?=^\s*\.(?:visible|extern|weak|common|entry|func|global|const|shared|local|tex|version|target|address_size|file|section|alias)` + END + ')',
  patterns: [
    { include: '#comments' },
    { name: 'meta.parameters.ptx', begin: R`\(`, end: R`\)`,
      beginCaptures: { 0: { name: 'punctuation.section.parens.begin.ptx' } },
      endCaptures: { 0: { name: 'punctuation.section.parens.end.ptx' } },
      patterns: [
        { include: '#comments' },
        { include: '#dotted-keywords' },
        { include: '#registers' },
        { include: '#numbers' },
        { include: '#sink' },
        { name: 'variable.parameter.ptx', match: IDENT },
        { include: '#punctuation' },
        { include: '#operators' }] },
    { include: '#dotted-keywords' },
    { include: '#numbers' },
    { include: '#strings' },
    { name: 'entity.name.function.ptx', match: IDENT + R`|%[\w$]+` },
    { include: '#punctuation' },
  ] };

repo.sink = { name: 'variable.language.sink.ptx', match: R`(?<![\w$%])_` + END };

repo.identifiers = { patterns: [
  // nvcc names its labels `$L__BB0_2`, `$L__func_begin0`, `$L__info_string0`.
  { name: 'entity.name.label.ptx', match: R`(?<![\w$%])\$L__[\w$]*` },
  { name: 'support.function.generic.ptx', match: START + R`generic(?=\s*\()` },
  { match: R`(?<![\w$%.])(` + IDENT + ')(' + COMPONENT + ')?' + END,
    captures: { 1: { name: 'variable.other.ptx' }, 2: { name: 'variable.other.property.component.ptx' } } },
] };

repo.operators = { patterns: [
  { name: 'keyword.operator.logical.ptx', match: R`&&|\|\||!(?!=)` },
  { name: 'keyword.operator.bitwise.shift.ptx', match: '<<|>>' },
  { name: 'keyword.operator.comparison.ptx', match: '==|!=|<=|>=|<|>' },
  { name: 'keyword.operator.bitwise.ptx', match: '[&|^~]' },
  { name: 'keyword.operator.arithmetic.ptx', match: '[-+*/%]' },
  { name: 'keyword.operator.assignment.ptx', match: '=' },
  { name: 'keyword.operator.ternary.ptx', match: '[?:]' },
] };

repo.punctuation = { patterns: [
  { name: 'punctuation.terminator.statement.ptx', match: ';' },
  { name: 'punctuation.separator.comma.ptx', match: ',' },
  { name: 'punctuation.section.braces.begin.ptx', match: R`\{` },
  { name: 'punctuation.section.braces.end.ptx', match: R`\}` },
  { name: 'punctuation.section.brackets.begin.ptx', match: R`\[` },
  { name: 'punctuation.section.brackets.end.ptx', match: R`\]` },
  { name: 'punctuation.section.parens.begin.ptx', match: R`\(` },
  { name: 'punctuation.section.parens.end.ptx', match: R`\)` },
] };

repo.operands = { patterns: [
  { include: '#comments' },
  { include: '#strings' },
  { include: '#registers' },
  { include: '#numbers' },
  { include: '#dotted-keywords' },
  { include: '#sink' },
  { include: '#identifiers' },
  { include: '#punctuation' },
  { include: '#operators' },
] };

export const grammar = {
  $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
  name: 'PTX',
  scopeName: 'source.ptx',
  fileTypes: ['ptx'],
  comment: 'Generated by generate.mjs; do not edit. NVIDIA PTX, coloured before ptxls answers; the server\'s semantic '
    + 'tokens refine it. Opcodes use support.function and special registers support.variable because VS Code maps '
    + 'the server\'s function/variable.defaultLibrary tokens to those scopes, so nothing changes colour when they arrive.',
  patterns: [
    { include: '#comments' },
    { include: '#preprocessor' },
    { include: '#strings' },
    { include: '#target-directive' },
    { include: '#function-header' },
    { include: '#section' },
    { include: '#label-definition' },
    { include: '#guard' },
    { include: '#call-instruction' },
    { include: '#branch-instruction' },
    { include: '#instruction' },
    { include: '#declaration' },
    { include: '#directive-statements' },
    { include: '#operands' },
  ],
  repository: repo,
};

export const GRAMMAR_JSON = fileURLToPath(new URL('./ptx.tmLanguage.json', import.meta.url));
export const grammarText = () => `${JSON.stringify(grammar, null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    if (readFileSync(GRAMMAR_JSON, 'utf8') !== grammarText()) {
      console.error(`${GRAMMAR_JSON} is stale: run node ${process.argv[1]}`);
      process.exit(1);
    }
  } else {
    writeFileSync(GRAMMAR_JSON, grammarText());
  }
}
