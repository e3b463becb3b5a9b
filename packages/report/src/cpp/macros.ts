/**
 * Macro definitions and their expansion (C11 6.10.3): object-like and function-like macros,
 * variadic ones, `#` and `##`, argument pre-expansion and rescanning with hide sets (Prosser's
 * algorithm), `__LINE__` and `__FILE__`.
 */
import type { SourcePosition } from '../linker/errors.js';
import { PreprocessError } from './errors.js';
import { tokenizeText, type Token } from './tokens.js';

export interface Macro {
  name: string;
  /** Parameter names; undefined for an object-like macro. A variadic macro ends with `__VA_ARGS__`. */
  params?: string[];
  body: Token[];
  position: SourcePosition;
}

/** More tokens when a macro call runs past the end of the line (the next text line), or nothing. */
export type MoreTokens = () => Token[] | undefined;

/** Expansion stops here: a file whose macros grow exponentially is an error, not a hang. */
const MAX_EXPANSIONS = 20_000;

const PLACEMARKER = '';

function withHide(token: Token, hide: ReadonlySet<string>): Token {
  if (token.hide) {
    const merged = new Set(token.hide);
    for (const name of hide) merged.add(name);
    return { ...token, hide: merged };
  }
  return { ...token, hide };
}

function stringize(arg: Token[], space: boolean, at: Token): Token {
  let text = '';
  for (const [index, token] of arg.entries()) {
    if (index > 0 && token.space) text += ' ';
    text +=
      token.kind === 'string' || token.kind === 'char'
        ? token.text.replace(/[\\"]/g, '\\$&')
        : token.text;
  }
  return { kind: 'string', text: `"${text}"`, space, line: at.line, column: at.column };
}

export class MacroExpander {
  private readonly macros = new Map<string, Macro>();
  private expansions = 0;

  constructor(
    /** The current file and line, for `__FILE__`, `__LINE__` and error positions. */
    private readonly where: () => SourcePosition,
  ) {}

  get(name: string): Macro | undefined {
    return this.macros.get(name);
  }

  has(name: string): boolean {
    return this.macros.has(name) || name === '__LINE__' || name === '__FILE__';
  }

  /** Defines a macro; returns the earlier definition when it differed (the caller warns). */
  define(macro: Macro): Macro | undefined {
    const previous = this.macros.get(macro.name);
    this.macros.set(macro.name, macro);
    if (!previous) return undefined;
    const same =
      JSON.stringify(previous.params) === JSON.stringify(macro.params) &&
      previous.body.map((t) => t.text).join(' ') === macro.body.map((t) => t.text).join(' ');
    return same ? undefined : previous;
  }

  undefine(name: string): void {
    this.macros.delete(name);
  }

  /** Fully expands a token list; `more` supplies following lines to complete a macro call. */
  expand(input: Token[], more?: MoreTokens): Token[] {
    const out: Token[] = [];
    const list = input.slice();
    let i = 0;
    while (i < list.length) {
      const token = list[i]!;
      if (token.kind !== 'ident' || token.hide?.has(token.text)) {
        out.push(token);
        i++;
        continue;
      }
      const builtin = this.builtin(token);
      if (builtin) {
        out.push(builtin);
        i++;
        continue;
      }
      const macro = this.macros.get(token.text);
      if (!macro) {
        out.push(token);
        i++;
        continue;
      }
      this.count();
      if (!macro.params) {
        const hide = new Set(token.hide ?? []).add(macro.name);
        list.splice(i, 1, ...this.substitute(macro, [], hide, token));
        continue;
      }
      const open = this.nextToken(list, i + 1, more);
      if (list[open]?.text !== '(') {
        out.push(token);
        i++;
        continue;
      }
      const { args, close } = this.collectArguments(macro, list, open, more);
      const closing = list[close]!;
      // Prosser: the call's hide set is what the name and the closing parenthesis share.
      const hide = new Set([...(token.hide ?? [])].filter((name) => closing.hide?.has(name)));
      hide.add(macro.name);
      list.splice(i, close - i + 1, ...this.substitute(macro, args, hide, token));
    }
    return out;
  }

  private count(): void {
    if (++this.expansions > MAX_EXPANSIONS) {
      throw new PreprocessError(
        `macro expansion is too large (more than ${MAX_EXPANSIONS} expansions)`,
        this.where(),
      );
    }
  }

  private builtin(token: Token): Token | undefined {
    if (this.macros.has(token.text)) return undefined;
    const where = this.where();
    if (token.text === '__LINE__') return { ...token, kind: 'number', text: String(where.line) };
    if (token.text === '__FILE__') {
      return { ...token, kind: 'string', text: JSON.stringify(where.file) };
    }
    return undefined;
  }

  /** Index of the next token from `from`, reading more lines when the list ends there. */
  private nextToken(list: Token[], from: number, more: MoreTokens | undefined): number {
    while (from >= list.length && more) {
      const extra = more();
      if (!extra) break;
      list.push(...extra);
    }
    return from;
  }

  private collectArguments(
    macro: Macro,
    list: Token[],
    open: number,
    more: MoreTokens | undefined,
  ): { args: Token[][]; close: number } {
    const params = macro.params!;
    const variadic = params[params.length - 1] === '__VA_ARGS__';
    const args: Token[][] = [[]];
    let depth = 0;
    let k = open + 1;
    for (;;) {
      k = this.nextToken(list, k, more);
      const token = list[k];
      if (!token) {
        throw new PreprocessError(
          `unterminated call of macro '${macro.name}' (missing ')')`,
          this.where(),
        );
      }
      if (token.text === '(') depth++;
      if (token.text === ')') {
        if (depth === 0) break;
        depth--;
      }
      if (token.text === ',' && depth === 0 && !(variadic && args.length === params.length)) {
        args.push([]);
      } else {
        args[args.length - 1]!.push(token);
      }
      k++;
    }
    const empty = args.length === 1 && args[0]!.length === 0;
    const given = params.length === 0 && empty ? 0 : args.length;
    if (variadic && given === params.length - 1) args.push([]);
    else if (given !== params.length) {
      throw new PreprocessError(
        `macro '${macro.name}' takes ${params.length} argument(s), but ${given} were given`,
        this.where(),
      );
    }
    return { args, close: k };
  }

  private substitute(
    macro: Macro,
    args: Token[][],
    hide: ReadonlySet<string>,
    call: Token,
  ): Token[] {
    const params = macro.params ?? [];
    const argOf = (token: Token | undefined): Token[] | undefined => {
      if (token?.kind !== 'ident') return undefined;
      const index = params.indexOf(token.text);
      return index < 0 ? undefined : args[index]!;
    };
    const result: Token[] = [];
    const body = macro.body;
    for (let k = 0; k < body.length; k++) {
      const token = body[k]!;
      if (token.text === '#' && macro.params) {
        const arg = argOf(body[k + 1]);
        if (!arg) {
          throw new PreprocessError(
            `'#' is not followed by a macro parameter in '${macro.name}'`,
            macro.position,
          );
        }
        result.push(stringize(arg, token.space, call));
        k++;
        continue;
      }
      if (token.text === '##') {
        const next = body[k + 1];
        k++;
        this.paste(result, argOf(next) ?? (next ? [next] : []));
        continue;
      }
      const arg = argOf(token);
      if (arg) {
        const raw = body[k + 1]?.text === '##';
        const replacement = raw ? arg : this.expand(arg);
        if (replacement.length === 0) {
          result.push({ ...token, kind: 'other', text: PLACEMARKER });
        } else {
          result.push(...replacement.map((t, n) => (n === 0 ? { ...t, space: token.space } : t)));
        }
        continue;
      }
      result.push({ ...token });
    }
    return result
      .filter((t) => !(t.kind === 'other' && t.text === PLACEMARKER))
      .map((t, n) => withHide(n === 0 ? { ...t, space: call.space } : t, hide));
  }

  /** `a ## b`: glues the last token so far to the first of `right`, which must lex as one token. */
  private paste(result: Token[], right: Token[]): void {
    const left = result.pop();
    if (!left || (left.kind === 'other' && left.text === PLACEMARKER)) {
      result.push(...right);
      return;
    }
    if (right.length === 0) {
      // GNU: `, ## __VA_ARGS__` drops the comma when there are no variadic arguments.
      if (left.text !== ',') result.push(left);
      return;
    }
    const [first, ...rest] = right as [Token, ...Token[]];
    if (first.kind === 'other' && first.text === PLACEMARKER) {
      result.push(left, ...rest);
      return;
    }
    const pasted = tokenizeText(left.text + first.text, this.where().file);
    if (pasted.length !== 1) {
      throw new PreprocessError(
        `pasting '${left.text}' and '${first.text}' does not give a valid token`,
        this.where(),
      );
    }
    result.push({ ...left, kind: pasted[0]!.kind, text: pasted[0]!.text }, ...rest);
  }
}
