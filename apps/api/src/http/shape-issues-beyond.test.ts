import Joi from 'joi';
import { shapeIssuesBeyond } from './shape-issues-beyond';

const schema = Joi.object({
  name: Joi.string().max(5),
  recipient: Joi.object({ name: Joi.string().max(5) }),
  breakdown: Joi.array().items(Joi.object({ tax_rate: Joi.number() })),
});
const body = { name: 'too long', recipient: { name: 'too long' }, breakdown: [{ tax_rate: 'x' }] };
const issue = (field: string) => ({ field, code: 'rule', message: 'by the rules' });

describe('the shape problems reported beside the rules’ problems', () => {
  it('are every problem of the shape when the rules found none', () => {
    expect(shapeIssuesBeyond(schema, body, []).map((i) => [i.field, i.code])).toEqual([
      ['name', 'too_long'],
      ['recipient.name', 'too_long'],
      ['breakdown.0.tax_rate', 'invalid_type'],
    ]);
  });

  it('leave out a field the rules already judged, however each names it, and its parts', () => {
    expect(shapeIssuesBeyond(schema, body, [issue('breakdown[0].tax_rate'), issue('recipient')]).map((i) => i.field)).toEqual(['name']);
    // A rule on a part of a field the shape refuses as a whole says it better.
    expect(shapeIssuesBeyond(schema, { recipient: 'nobody' }, [issue('recipient.name')])).toEqual([]);
  });

  it('are none when the rules refused the body as a whole', () => {
    expect(shapeIssuesBeyond(schema, body, [issue('')])).toEqual([]);
  });

  it('are none for a body of the documented shape', () => {
    expect(shapeIssuesBeyond(schema, { name: 'Ana' }, [issue('name')])).toEqual([]);
  });
});
