/**
 * @file Tree-sitter grammar for NVIDIA PTX (Parallel Thread Execution) assembly.
 * @license MIT
 *
 * Design notes.
 * - Instructions are generic: an opcode, a chain of dotted modifiers and a list of operands.
 *   Which modifiers and operands an opcode accepts is checked later, from the instruction table,
 *   so a new PTX ISA release never makes the parser reject a file.
 * - Directives whose argument shape matters to analyzers (module header, declarations,
 *   functions, calls, debug sections) have their own rules with named fields.
 * - `.version`, `.target`, `.address_size`, `.file`, `.loc` and section data lines end without
 *   `;`, exactly as ptxas expects, so their argument shapes are spelled out.
 * - The lexer is context-aware: the generic `modifier` token (`.shared::cta`, `.2d`) and the
 *   keyword tokens (`.reg`, `.b32`) never compete, because no parse state accepts both.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Constant-expression precedence, lowest first (PTX ISA §4.5.4, Table 4).
const PREC = {
  TERNARY: 1,
  LOGICAL_OR: 2,
  LOGICAL_AND: 3,
  BIT_OR: 4,
  BIT_XOR: 5,
  BIT_AND: 6,
  EQUALITY: 7,
  RELATIONAL: 8,
  SHIFT: 9,
  ADDITIVE: 10,
  MULTIPLICATIVE: 11,
  CAST: 12,
  UNARY: 13,
};

// State spaces usable in declarations (PTX ISA §5.1, Table 6).
const STATE_SPACES = ['.reg', '.sreg', '.const', '.global', '.local', '.param', '.shared', '.tex'];

// Fundamental, packed, alternate-format and opaque types (PTX ISA §5.2, §5.3).
const TYPES = [
  '.b8', '.b16', '.b32', '.b64', '.b128',
  '.s8', '.s16', '.s32', '.s64',
  '.u8', '.u16', '.u32', '.u64',
  '.f16', '.f16x2', '.f32', '.f64',
  '.bf16', '.bf16x2', '.tf32',
  '.e4m3', '.e5m2', '.e4m3x2', '.e5m2x2',
  '.e2m1', '.e2m1x2', '.e2m3', '.e2m3x2', '.e3m2', '.e3m2x2', '.ue8m0', '.ue8m0x2',
  '.s2f6x2',
  '.pred',
  '.texref', '.samplerref', '.surfref',
];

const LINKAGE = ['.visible', '.extern', '.weak', '.common'];

const VECTOR_WIDTHS = ['.v2', '.v4', '.v8'];

// Directives that may sit between a function's signature and its body.
const FUNCTION_HEADER_DIRECTIVES = [
  '.maxntid', '.reqntid', '.minnctapersm', '.maxnctapersm', '.maxnreg', '.noreturn',
  '.reqnctapercluster', '.explicitcluster', '.maxclusterrank', '.blocksareclusters',
  '.abi_preserve', '.abi_preserve_control',
];

// Vector component selectors (PTX ISA §6.4.3); `.r .g .b .a` are the colour aliases. The
// video instructions select bytes and half-words the same way: `.b0`..`.b3`, `.h0`, `.h1`,
// and the SIMD forms several at once (`.b3210`, `.h10`; digits pick source lanes).
const COMPONENT = /\.([xyzwrgba]|b[0-7]{1,4}|h[0-3]{1,2})/;

const DATA_TYPES = ['.b8', '.b16', '.b32', '.b64'];

// PTX ISA §4.4: [a-zA-Z]{followsym}* | [_$%]{followsym}+, followsym = [a-zA-Z0-9_$].
const IDENTIFIER = /[a-zA-Z][a-zA-Z0-9_$]*|[_$%][a-zA-Z0-9_$]+/;

// One well-formed debug-section row or label, as a regular expression for the section_data
// token: `.b8 1, 2`, `.b32 .debug_abbrev+12`, `.b64 $L__func_begin0`, `$L__info_string0:`.
// Values are integers, names and section names, joined by + or -; anything else is left to
// the data_line rule.
const SECTION_VALUE_TERM = choice(/-?(0[xX][0-9a-fA-F]+|[0-9]+)/, IDENTIFIER, /\.[a-zA-Z_][a-zA-Z0-9_$]*/);
const SECTION_VALUE = seq(SECTION_VALUE_TERM, repeat(seq(/[ \t]*[+-][ \t]*/, SECTION_VALUE_TERM)));
const SECTION_ROW = choice(
  seq(choice(...DATA_TYPES), /[ \t]+/, SECTION_VALUE, repeat(seq(/[ \t]*,[ \t]*/, SECTION_VALUE)), optional(/[ \t]*;/)),
  seq(IDENTIFIER, /[ \t]*:/),
);
// A row counts only with its line end, so the token never stops inside a row (`.b8 1,` with
// the next value on the next line) and a row with anything after it goes to data_line whole.
const SECTION_LINE = seq(SECTION_ROW, /[ \t]*\r?\n/);

module.exports = grammar({
  name: 'ptx',

  extras: $ => [/\s/, $.comment, $.preprocessor_line],

  // The modulo operator is the one token the internal lexer cannot decide: ptxas lexes `%r2`
  // as a name wherever it appears (maximal munch), so `a %r2` is two operands, never `a % r2`.
  // src/scanner.c returns `%` only when no identifier character follows it.
  //
  // It also emits the zero-width boundaries that split long statement lists into hidden
  // chunks (see `block`), and takes no part in error recovery (`_error_sentinel`).
  externals: $ => [
    $._modulo_operator,
    $._chunk_boundary_1,
    $._chunk_boundary_2,
    $._chunk_boundary_3,
    $._error_sentinel,
  ],

  word: $ => $.identifier,

  // A prototype without `;` followed by a module-level `.pragma` reads like a definition
  // whose `.pragma` precedes its body until the token after the pragma; GLR settles it.
  conflicts: $ => [[$.function_definition, $.function_declaration]],

  // Hidden rules that only choose between alternatives are inlined: each saves a reduction
  // per operand or statement, about 15% of parse time (measured with callgrind).
  inline: $ => [
    $._expression, $._operand, $._statement, $._module_item, $._data_value, $._initializer,
    $._value,
  ],


  rules: {
    source_file: $ => repeat($._module_item),

    _module_item: $ => choice(
      $.version_directive,
      $.target_directive,
      $.address_size_directive,
      $.file_directive,
      $.loc_directive,
      $.pragma_directive,
      $.alias_directive,
      $.section_directive,
      $.variable_declaration,
      $.function_definition,
      $.function_declaration,
      $.dwarf_line,
      $.unknown_directive,
    ),

    // ── Module header ────────────────────────────────────────────────────────────────────

    version_directive: $ => seq('.version', field('version', $.float_literal)),

    target_directive: $ => seq('.target', commaSep1(field('target', $.identifier))),

    address_size_directive: $ => seq('.address_size', field('size', $.integer_literal)),

    // `.file 1 "a.cu"` or `.file 1 "a.cu", <timestamp>, <size>`.
    file_directive: $ => seq(
      '.file',
      field('index', $.integer_literal),
      field('path', $.string_literal),
      repeat(seq(',', field('extra', $.integer_literal))),
    ),

    // `.loc file line column` with optional attributes such as
    // `, function_name $L__info_string0` and `, inlined_at 1 2 3`.
    loc_directive: $ => seq(
      '.loc',
      field('file', $.integer_literal),
      field('line', $.integer_literal),
      field('column', $.integer_literal),
      repeat(seq(',', field('attribute', $.loc_attribute))),
    ),

    loc_attribute: $ => seq(
      field('name', $.identifier),
      choice(
        seq(field('value', $.identifier), optional(seq('+', field('offset', $.integer_literal)))),
        repeat1(field('value', $.integer_literal)),
      ),
    ),

    pragma_directive: $ => seq('.pragma', commaSep1(field('value', $.string_literal)), ';'),

    alias_directive: $ => seq(
      '.alias', field('alias', $.identifier), ',', field('aliasee', $.identifier), ';',
    ),

    // Old nvcc emitted DWARF as `@@DWARF` lines; ptxas ignores their content.
    dwarf_line: _ => token(seq('@@DWARF', /[^\n]*/)),

    // Any other dotted directive. Parsing it keeps the rest of the file intact; the semantic
    // layer reports it as unknown.
    unknown_directive: $ => seq(
      field('name', alias($.modifier, $.directive_name)),
      commaSep(field('argument', $._operand)),
      ';',
    ),

    // ── Debug sections ───────────────────────────────────────────────────────────────────

    section_directive: $ => seq(
      '.section',
      field('name', alias($.modifier, $.section_name)),
      '{',
      repeat(choice($.section_data, $.data_line, $.label)),
      '}',
    ),

    // A run of well-formed rows and labels is one token: a `-G` file's DWARF is a third to a
    // half of its bytes in rows like `.b8 0`, and as data_line nodes it was most of the tree
    // (1.3 of 3.1 million nodes on a 9.4 MB file). Nothing reads the rows but the formatter,
    // which keeps sections byte for byte. A row the token does not take (a malformed one, a
    // value list broken across lines, a comment) is parsed as data_line/label, so errors are
    // still found and recovered where they were.
    section_data: _ => token(seq(SECTION_LINE, repeat(seq(/[ \t\r\n]*/, SECTION_LINE)))),

    // `.b8 1, 2, 3` / `.b32 .debug_abbrev` / `.b64 $L__func_begin0`: no terminating `;`.
    data_line: $ => seq(
      field('type', alias(choice(...DATA_TYPES), $.type)),
      commaSep1(field('value', $._data_value)),
      optional(';'),
    ),

    _data_value: $ => choice(
      $._expression,
      $.section_reference,
    ),

    section_reference: $ => seq(
      field('section', alias($.modifier, $.section_name)),
      optional(seq('+', field('offset', $.integer_literal))),
    ),

    // ── Declarations ─────────────────────────────────────────────────────────────────────

    variable_declaration: $ => seq(
      repeat(field('linkage', $.linkage)),
      field('space', $.state_space),
      repeat(choice(
        field('align', $.align_clause),
        field('attribute', $.attribute_clause),
      )),
      optional(field('vector', $.vector_width)),
      field('type', $.type),
      repeat(field('ptr', $.ptr_clause)),
      commaSep1(field('declarator', $.declarator)),
      ';',
    ),

    linkage: _ => choice(...LINKAGE),

    state_space: _ => choice(...STATE_SPACES),

    type: _ => choice(...TYPES),

    vector_width: _ => choice(...VECTOR_WIDTHS),

    align_clause: $ => seq('.align', field('value', $._expression)),

    // `.attribute(.managed)`, `.attribute(.unified(0xAB, 0xCD))`.
    attribute_clause: $ => seq(
      '.attribute',
      '(',
      commaSep1(field('attribute', $.attribute)),
      ')',
    ),

    attribute: $ => seq(
      field('name', alias($.modifier, $.attribute_name)),
      optional(seq('(', commaSep(field('argument', $._expression)), ')')),
    ),

    // `.ptr .global .align 16`, also glued as `.ptr.global.align 16` (PTX ISA §5.1.6.3).
    ptr_clause: $ => seq(
      '.ptr',
      optional(field('space', $.state_space)),
      optional(field('align', $.align_clause)),
    ),

    // `name`, `name[4][N]`, `name[]`, `%r<100>`, `_`, each with an optional initializer.
    declarator: $ => seq(
      field('name', choice($.identifier, $.sink)),
      optional(choice(
        field('count', $.register_count),
        repeat1(field('dimension', $.array_dimension)),
      )),
      optional(seq('=', field('initializer', $._initializer))),
    ),

    register_count: $ => seq('<', field('count', $.integer_literal), '>'),

    array_dimension: $ => seq('[', optional(field('size', $._expression)), ']'),

    _initializer: $ => choice($._value, $.initializer_list),

    initializer_list: $ => seq(
      '{',
      commaSep(choice($._initializer, $.field_initializer)),
      '}',
    ),

    // Named fields of opaque-type initializers: `{ filter_mode = nearest }`.
    field_initializer: $ => seq(field('field', $.identifier), '=', field('value', $._expression)),

    // ── Functions ────────────────────────────────────────────────────────────────────────

    // ptxas also accepts `.pragma` statements between the signature and the body.
    function_definition: $ => seq(
      $._function_signature,
      repeat(field('pragma', $.pragma_directive)),
      field('body', $.block),
    ),

    // A prototype; the closing `;` is optional, as ptxas allows.
    function_declaration: $ => prec.dynamic(-1, seq(
      $._function_signature,
      optional(';'),
    )),


    // Only `.func` has a return-parameter list; `.entry (` is the classic missing-name mistake.
    _function_signature: $ => seq(
      repeat(field('linkage', $.linkage)),
      choice(
        field('kind', alias('.entry', $.function_kind)),
        seq(
          field('kind', alias('.func', $.function_kind)),
          optional(field('attribute', $.attribute_clause)),
          optional(field('returns', $.parameter_list)),
        ),
      ),
      field('name', $.identifier),
      optional(field('parameters', $.parameter_list)),
      repeat(field('directive', $.function_header_directive)),
    ),

    parameter_list: $ => seq('(', commaSep(field('parameter', $.parameter)), ')'),

    // `.param .align 8 .b8 buf[64]`, `.param .u64 .ptr.global.align 16 p`, `.reg .u32 %r`;
    // in prototypes the name may be `_` or absent.
    parameter: $ => seq(
      field('space', $.state_space),
      repeat(field('align', $.align_clause)),
      optional(field('vector', $.vector_width)),
      field('type', $.type),
      repeat(field('ptr', $.ptr_clause)),
      optional(field('declarator', $.declarator)),
    ),

    function_header_directive: $ => prec.right(seq(
      field('name', choice(...FUNCTION_HEADER_DIRECTIVES)),
      commaSep(field('value', $._expression)),
    )),

    // ── Function bodies ──────────────────────────────────────────────────────────────────

    // Statements are the block's visible children. Underneath, long runs are grouped into
    // three levels of hidden chunks at content-defined boundaries (a hash of the statement
    // that follows, computed by the scanner; on average every 16th, 256th and 4096th
    // statement). tree-sitter 0.20 reuses the items of one long repetition one by one after
    // an edit, so a flat body of n statements costs O(n) to reparse; chunks whose
    // boundaries do not move under edits make it O(n/16 + ...) reused nodes instead.
    block: $ => seq(
      '{',
      repeat(choice($._statement, $._chunk_1, $._chunk_2, $._chunk_3)),
      '}',
    ),

    // A chunk runs from its boundary to the next boundary of the same or a higher level.
    _chunk_1: $ => prec.right(seq($._chunk_boundary_1, repeat1($._statement))),

    _chunk_2: $ => prec.right(seq(
      $._chunk_boundary_2, repeat1(choice($._statement, $._chunk_1)),
    )),

    _chunk_3: $ => prec.right(seq(
      $._chunk_boundary_3, repeat1(choice($._statement, $._chunk_1, $._chunk_2)),
    )),

    _statement: $ => choice(
      $.label,
      $.instruction,
      $.call_instruction,
      $.variable_declaration,
      $.block,
      $.pragma_directive,
      $.loc_directive,
      $.file_directive,
      $.callprototype_directive,
      $.calltargets_directive,
      $.branchtargets_directive,
      $.unknown_directive,
    ),

    // `call` is a keyword only where a call can start; as a label name it is an identifier.
    label: $ => seq(field('name', choice($.identifier, alias('call', $.identifier))), ':'),

    instruction: $ => seq(
      optional(field('guard', $.guard)),
      field('opcode', alias($.identifier, $.opcode)),
      flatRepeat(field('modifier', $.modifier), 5),
      // The second operand is spelled out too (see flatRepeat): most instructions have two or
      // three, and the repetition nodes this saves were 14-29% of a tree's heap.
      optional(seq(field('operand', $._operand), flatRepeat(seq(',', field('operand', $._operand)), 1))),
      ';',
    ),

    guard: $ => seq('@', optional(field('negated', '!')), field('predicate', $.identifier)),

    // `call.uni (ret), fn, (a, b);`, `call (ret), %fptr, (a), proto;`, `call fn;`.
    call_instruction: $ => seq(
      optional(field('guard', $.guard)),
      field('opcode', alias('call', $.opcode)),
      flatRepeat(field('modifier', $.modifier), 3),
      optional(seq(field('returns', $.call_returns), ',')),
      field('callee', $.identifier),
      optional(seq(',', field('arguments', $.call_arguments))),
      optional(seq(',', field('targets', $.identifier))),
      ';',
    ),

    call_returns: $ => seq('(', commaSep(field('value', choice($.identifier, $.sink))), ')'),

    call_arguments: $ => seq('(', commaSep(field('argument', $._operand)), ')'),

    // `proto: .callprototype (.param .b32 _) _ (.param .b32 _);`
    callprototype_directive: $ => seq(
      '.callprototype',
      optional(field('returns', $.parameter_list)),
      field('name', choice($.sink, $.identifier)),
      field('parameters', $.parameter_list),
      ';',
    ),

    calltargets_directive: $ => seq('.calltargets', commaSep1(field('target', $.identifier)), ';'),

    branchtargets_directive: $ => seq(
      '.branchtargets', commaSep1(field('target', $.identifier)), ';',
    ),

    // ── Operands ─────────────────────────────────────────────────────────────────────────

    _operand: $ => choice(
      $._value,
      $.address,
      $.vector_operand,
    ),

    // Hex floats are exact bit patterns: ptxas takes them as whole operands or initializers
    // (optionally parenthesized) but not inside constant expressions.
    _value: $ => choice($._expression, $.hex_float_literal),

    // `[reg]`, `[var+8]`, `[reg+-4]`, `[0x100]`, and the texture/surface tuple forms
    // `[tex, {x, y}]`, `[tex, sampler, {x, y}]`. ptxas rejects `[reg-4]`, so the offset
    // only follows `+`.
    address: $ => seq(
      '[',
      field('base', choice($.identifier, $.integer_literal, $.vector_operand)),
      optional(seq('+', field('offset', $._expression))),
      repeat(seq(',', field('element', choice($._value, $.vector_operand)))),
      ']',
      // `ld.global.u32 %r1, [%rd1].unified;` (PTX ISA 8.x): the address is in unified memory.
      optional(field('qualifier', alias('.unified', $.modifier))),
    ),

    // `{a, b}`; a texture or surface result may carry a residency predicate: `{a, b}|%p`.
    vector_operand: $ => seq(
      '{', commaSep1(field('element', $._value)), '}',
      optional(seq('|', field('predicate', $.identifier))),
    ),

    // `_`: discards a result (`call (_), f, (x);`, `setp.lt.s32 %p|_, a, b;`).
    sink: _ => '_',

    // ── Constant expressions (PTX ISA §4.5.4) ────────────────────────────────────────────

    _expression: $ => choice(
      $.identifier,
      // A symbol may be named `generic`; only `generic(` starts a generic_expression.
      alias('generic', $.identifier),
      $.integer_literal,
      $.float_literal,
      $.sink,
      $.component_expression,
      $.index_expression,
      $.unary_expression,
      $.binary_expression,
      $.conditional_expression,
      $.cast_expression,
      $.parenthesized_expression,
      $.generic_expression,
      $.mask_expression,
    ),

    // `%tid.x`, `%v.r`, `%r1.b0`, `%r2.h10`.
    component_expression: $ => seq(
      field('operand', $.identifier),
      field('component', alias(token(COMPONENT), $.component)),
    ),

    // `array[4]`, `array[%r1]` (PTX ISA §6.4.2).
    index_expression: $ => seq(
      field('operand', $.identifier),
      '[', field('index', $._expression), ']',
    ),

    unary_expression: $ => prec.right(PREC.UNARY, seq(
      field('operator', choice('-', '+', '!', '~')),
      field('operand', $._expression),
    )),

    binary_expression: $ => {
      /** @type {[RuleOrLiteral, number][]} */
      const table = [
        ['*', PREC.MULTIPLICATIVE], ['/', PREC.MULTIPLICATIVE],
        [alias($._modulo_operator, '%'), PREC.MULTIPLICATIVE],
        ['+', PREC.ADDITIVE], ['-', PREC.ADDITIVE],
        ['<<', PREC.SHIFT], ['>>', PREC.SHIFT],
        ['<', PREC.RELATIONAL], ['>', PREC.RELATIONAL],
        ['<=', PREC.RELATIONAL], ['>=', PREC.RELATIONAL],
        ['==', PREC.EQUALITY], ['!=', PREC.EQUALITY],
        ['&', PREC.BIT_AND], ['^', PREC.BIT_XOR], ['|', PREC.BIT_OR],
        ['&&', PREC.LOGICAL_AND], ['||', PREC.LOGICAL_OR],
      ];
      return choice(...table.map(([operator, precedence]) => prec.left(precedence, seq(
        field('left', $._expression),
        field('operator', operator),
        field('right', $._expression),
      ))));
    },

    conditional_expression: $ => prec.right(PREC.TERNARY, seq(
      field('condition', $._expression),
      '?',
      field('consequence', $._expression),
      ':',
      field('alternative', $._expression),
    )),

    // `(.s64) x`, `(.u64) x`: the only casts constant expressions allow.
    cast_expression: $ => prec.right(PREC.CAST, seq(
      '(', field('type', alias(choice('.s64', '.u64'), $.type)), ')',
      field('operand', $._expression),
    )),

    parenthesized_expression: $ => seq('(', $._value, ')'),

    // `generic(var)` in initializers (PTX ISA §5.4.4).
    generic_expression: $ => seq('generic', '(', field('operand', $.identifier), ')'),

    // `0xff(var+4)`: byte-mask initializers (PTX ISA §5.4.4, PTX 7.1+).
    mask_expression: $ => seq(
      field('mask', $.integer_literal),
      token.immediate('('),
      field('operand', $._expression),
      ')',
    ),

    // ── Tokens ───────────────────────────────────────────────────────────────────────────

    identifier: _ => IDENTIFIER,

    // A dotted modifier with optional `::` sub-qualifiers: `.global`, `.shared::cta`,
    // `.mbarrier::complete_tx::bytes`, `.L2::128B`, `.2d`. A leading digit must be followed
    // by a letter so that `.5` stays a float.
    modifier: _ => /\.([a-zA-Z_][a-zA-Z0-9_$]*|[0-9]+[a-zA-Z_][a-zA-Z0-9_$]*)(::[a-zA-Z0-9_$]+)*/,

    integer_literal: _ => token(choice(
      /0[xX][0-9a-fA-F]+U?/,
      /0[bB][01]+U?/,
      /0[0-7]*U?/,
      /[1-9][0-9]*U?/,
    )),

    float_literal: _ => token(choice(
      /[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?/,
      /\.[0-9]+([eE][+-]?[0-9]+)?/,
      /[0-9]+[eE][+-]?[0-9]+/,
    )),

    // `0f3f800000` (exact f32) and `0d3ff0000000000000` (exact f64).
    hex_float_literal: _ => token(choice(
      /0[fF][0-9a-fA-F]{8}/,
      /0[dD][0-9a-fA-F]{16}/,
    )),

    // ptxas knows no escapes: a backslash is an ordinary character.
    string_literal: _ => /"[^"\n]*"/,

    comment: _ => token(choice(
      seq('//', /[^\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    )),

    // C preprocessor lines (`#include`, `#define`, `#line`): PTX may be run through cpp.
    preprocessor_line: _ => token(seq('#', /[^\n]*/)),
  },
});

/**
 * Zero or more `rule`s, the first `flat` of them spelled out. tree-sitter builds hidden nodes
 * for the repetitions of a repeat() (about one per item), and tree memory and parse time go
 * with the number of nodes. Items spelled out sit directly among their parent's children; the
 * visible tree, its fields included, is the same. Each spelled-out item copies the states
 * that follow it: cheap for modifiers (a state or two each), dear for operands, whose
 * expressions take many states. One operand spelled out after the first doubles parser.c
 * (2.5 -> 4.6 MB), parses nvcc output 9% faster (callgrind, cub.sm_80.ptx) and shrinks the
 * tree by 14-29% (a 9.4 MB -G file, cub.sm_80, Sort.ptx); a second one makes parser.c 37 MB.
 * @param {RuleOrLiteral} rule
 * @param {number} flat
 * @returns {RuleOrLiteral}
 */
function flatRepeat(rule, flat) {
  let rest = repeat(rule);
  for (let i = 0; i < flat; ++i) rest = optional(seq(rule, rest));
  return rest;
}

/**
 * One or more `rule`s separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {SeqRule}
 */
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

/**
 * Zero or more `rule`s separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {ChoiceRule}
 */
function commaSep(rule) {
  return optional(commaSep1(rule));
}
