import Joi from 'joi';
import { blankAtAnEnd, characterCount, surroundingBlankMessage, trimSpaces } from '@vf/core';

/**
 * joi's string with `maxChars`: a maximum length in characters (code points), as XML Schema's maxLength and JSON
 * Schema's maxLength count them. joi's own `max` counts UTF-16 units, so an emoji would count twice. The rule is named
 * `max` in the schema's description, which the OpenAPI converter writes as `maxLength`.
 */
interface TextSchema extends Joi.StringSchema {
  maxChars(limit: number): this;
  /**
   * For a text the authority's record carries as it is: only the spaces at its ends are removed (as the authority does
   * on reception); any other blank at an end is refused (`surrounding_blank`, with the field's `authority_code`)
   * rather than removed without a word. joi's own `trim()` removes every Unicode blank.
   */
  verbatim(authorityCode: number): this;
}

const TextJoi = Joi.extend({
  type: 'string',
  base: Joi.string(),
  // The error keeps joi's own type, so it reads (and maps to a field code) like any too-long string.
  messages: { 'string.max': '{{#label}} must have at most {{#limit}} characters', 'vf.surrounding_blank': '{{#message}}' },
  rules: {
    maxChars: {
      method(limit: number) {
        // joi takes `method` (the rule that validates) apart from `name` (the rule as described); its types do not say so.
        return this.$_addRule({ name: 'max', method: 'maxChars', args: { limit } } as Joi.AddRuleOptions);
      },
      args: [
        { name: 'limit', assert: (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0, message: 'must be a non-negative integer' },
      ],
      validate(value: string, helpers: Joi.CustomHelpers, args: Record<string, unknown>) {
        return characterCount(value) <= (args.limit as number) ? value : helpers.error('string.max', { limit: args.limit });
      },
    },
    verbatim: {
      method(authorityCode: number) {
        return this.$_addRule({ name: 'verbatim', args: { authorityCode } });
      },
      args: [{ name: 'authorityCode', assert: (v: unknown) => Number.isSafeInteger(v), message: 'must be an authority code' }],
      validate(value: string, helpers: Joi.CustomHelpers, args: Record<string, unknown>) {
        const text = trimSpaces(value);
        const codePoint = blankAtAnEnd(text);
        if (codePoint === undefined) return text;
        const field = helpers.state.path?.join('.') ?? '';
        return helpers.error('vf.surrounding_blank', {
          message: surroundingBlankMessage(field, codePoint),
          authority_code: args.authorityCode,
        });
      },
    },
  },
}) as unknown as { string(): TextSchema };

/** A text of at most `limit` characters (code points). */
export const text = (limit: number) => TextJoi.string().maxChars(limit);
