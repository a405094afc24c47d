// CUDA sources beside a C++ language server. ptxls answers only for the PTX inside the asm strings
// of `.cu`/`.cuh` files; the C++ around them is clangd's (or cpptools'). VS Code merges what several
// servers give for one document (diagnostics, hovers, completions, definitions, code actions), but
// takes some features from a single provider:
//   - formatting: with two formatters VS Code asks the user to pick one, and format on save would
//     run ptxls's on C++ it does not format. ptxls formats PTX documents only.
//   - semantic tokens: the first provider that answers colours the whole document, so ptxls's
//     tokens (asm strings only) would hide clangd's colouring of the rest. ptxls colours CUDA
//     documents only where no C++ extension that colours them is installed.
import * as vscode from 'vscode';
import {
  DocumentFormattingRequest,
  DocumentOnTypeFormattingRequest,
  DocumentRangeFormattingRequest,
  DynamicFeature,
  LanguageClient,
  SemanticTokensRegistrationType,
  ServerCapabilities,
  TextDocumentRegistrationOptions,
} from 'vscode-languageclient/node';

// A filter both VS Code and the client library take (their own types differ in glob patterns).
interface Filter {
  scheme: string;
  language?: string;
  pattern?: string;
}

export const PTX_SELECTOR: Filter[] = [
  { scheme: 'file', language: 'ptx' },
  { scheme: 'untitled', language: 'ptx' },
];

// VS Code's own C++ extension calls CUDA `cuda-cpp`; some CUDA extensions contribute `cuda`. The
// patterns take `.cu`/`.cuh` files whatever language another extension gives them.
export const CUDA_LANGUAGES = ['cuda-cpp', 'cuda'];
export const CUDA_SELECTOR: Filter[] = [
  ...CUDA_LANGUAGES.flatMap((language) => [{ scheme: 'file', language }, { scheme: 'untitled', language }]),
  { scheme: 'file', pattern: '**/*.cu' },
  { scheme: 'file', pattern: '**/*.cuh' },
];

// Extensions that colour C++ (and CUDA) with semantic tokens of their own.
const CPP_EXTENSIONS = ['llvm-vs-code-extensions.vscode-clangd', 'ms-vscode.cpptools'];

export function isCudaDocument(document: vscode.TextDocument): boolean {
  return vscode.languages.match(CUDA_SELECTOR, document) > 0;
}

// The installed C++ extension that colours CUDA documents, or undefined.
export function cppColouringExtension(): string | undefined {
  return CPP_EXTENSIONS.find((id) => vscode.extensions.getExtension(id) !== undefined);
}

// Registers the server's formatting (and, when `cudaSemanticTokens` is false, its semantic tokens)
// for PTX documents only. The client library registers every feature the server announces for the
// whole document selector; this gives those features the PTX selector instead, before the client
// starts. Registrations the server makes itself come with their own selector and are left alone.
export function keepForPtxOnly(client: LanguageClient, cudaSemanticTokens: boolean): void {
  const features: DynamicFeature<TextDocumentRegistrationOptions>[] = [
    client.getFeature(DocumentFormattingRequest.method),
    client.getFeature(DocumentRangeFormattingRequest.method),
    client.getFeature(DocumentOnTypeFormattingRequest.method),
  ];
  if (!cudaSemanticTokens) features.push(client.getFeature(SemanticTokensRegistrationType.method));
  for (const feature of features) {
    const initialize = feature.initialize.bind(feature);
    feature.initialize = (capabilities: ServerCapabilities) => initialize(capabilities, PTX_SELECTOR);
  }
}
