/** A JSON Schema document, as plain data (draft 2020-12 keywords). */
export type JsonSchema = { [keyword: string]: unknown };
