import {
  type FunctionTemplateOptions,
  type JinjaTemplateOptions,
  type TemplateFunction,
  templateFromFunction,
  templateFromJinja,
} from './custom-templates.js';
import { chatmlTemplate, qwen3NoThinkTemplate, qwen3Template } from './default-template.js';
import { PromptTemplateError } from './errors.js';
import type { PromptTemplate } from './prompt-template.js';

/**
 * Templates by id, so that a model profile can name its template (`template: 'qwen3_nothink'`) and a run
 * record can be replayed. The built-ins are always there and cannot be replaced; yours are added with
 * `registerTemplate`. One registry per loaded copy of haggle.
 */
const BUILT_IN: ReadonlyMap<string, PromptTemplate> = new Map<string, PromptTemplate>(
  [qwen3NoThinkTemplate, qwen3Template, chatmlTemplate].map((template) => [template.id, template]),
);
const registered = new Map<string, PromptTemplate>();

/** Options of `registerTemplate`. */
export interface RegisterTemplateOptions {
  /** Replace a template you registered before under the same id. Built-ins are never replaced. */
  replace?: boolean;
}

/** Registers a template value under its id. */
export function registerTemplate(template: PromptTemplate, options?: RegisterTemplateOptions): PromptTemplate;
/** Registers a template from a Jinja chat template string (see `templateFromJinja`). */
export function registerTemplate(
  id: string,
  source: string,
  options?: JinjaTemplateOptions & RegisterTemplateOptions,
): PromptTemplate;
/** Registers a template from a function of the negotiation state (see `templateFromFunction`). */
export function registerTemplate(
  id: string,
  source: TemplateFunction,
  options?: FunctionTemplateOptions & RegisterTemplateOptions,
): PromptTemplate;
export function registerTemplate(
  idOrTemplate: string | PromptTemplate,
  sourceOrOptions?: string | TemplateFunction | RegisterTemplateOptions,
  maybeOptions?: (JinjaTemplateOptions | FunctionTemplateOptions) & RegisterTemplateOptions,
): PromptTemplate {
  let template: PromptTemplate;
  let options: RegisterTemplateOptions | undefined;
  if (typeof idOrTemplate === 'string') {
    const source = sourceOrOptions;
    const { replace, ...rest } = maybeOptions ?? {};
    options = { replace: replace ?? false };
    if (typeof source === 'string') template = templateFromJinja(idOrTemplate, source, rest);
    else if (typeof source === 'function') template = templateFromFunction(idOrTemplate, source, rest);
    else {
      throw new PromptTemplateError({
        templateId: idOrTemplate,
        message: `registerTemplate("${idOrTemplate}", source): the source must be a Jinja string or a function`,
      });
    }
  } else {
    template = idOrTemplate;
    options = sourceOrOptions as RegisterTemplateOptions | undefined;
    if (!isPromptTemplate(template)) {
      throw new PromptTemplateError({
        templateId: String((template as { id?: unknown } | null)?.id ?? ''),
        message:
          'registerTemplate(template): a template is an object with a non-empty id and a render(input) function',
      });
    }
  }
  const { id } = template;
  if (BUILT_IN.has(id)) {
    throw new PromptTemplateError({
      templateId: id,
      message: `"${id}" is a built-in template and cannot be replaced; choose another id`,
    });
  }
  if (registered.has(id) && options?.replace !== true) {
    throw new PromptTemplateError({
      templateId: id,
      message: `A template "${id}" is already registered; pass { replace: true } to replace it`,
    });
  }
  registered.set(id, template);
  return template;
}

/** Removes a template you registered; returns whether there was one. Built-ins stay. */
export function unregisterTemplate(id: string): boolean {
  return registered.delete(id);
}

/** The template registered under `id`, built-in or yours. */
export function getTemplate(id: string): PromptTemplate {
  const found = BUILT_IN.get(id) ?? registered.get(id);
  if (found === undefined) {
    throw new PromptTemplateError({
      templateId: id,
      message: `Unknown template "${id}"; known templates are ${templateIds().join(', ')}. Register yours with registerTemplate(id, jinjaSourceOrFunction).`,
    });
  }
  return found;
}

/** Every template id that `getTemplate` knows: the built-ins first, then yours in registration order. */
export function templateIds(): string[] {
  return [...BUILT_IN.keys(), ...registered.keys()];
}

export function isPromptTemplate(value: unknown): value is PromptTemplate {
  const candidate = value as Partial<PromptTemplate> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    candidate.id !== '' &&
    typeof candidate.render === 'function'
  );
}
