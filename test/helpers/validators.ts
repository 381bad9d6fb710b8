/**
 * The JSON Schema validators of the tests' clients: each client kind's own (the SDK's Ajv validator,
 * the one it makes by default), shared by every client of that kind in a worker. A client compiles
 * every listed tool's output schema when it lists the tools, and a run opens hundreds of sessions:
 * here each schema is compiled once a worker (one entry a distinct schema, a few dozen). Every
 * result is still checked against its tool's output schema, by the same code.
 */
import { AjvJsonSchemaValidator as V2Ajv } from '@modelcontextprotocol/client/validators/ajv';
import { AjvJsonSchemaValidator as Sdk1Ajv } from '@modelcontextprotocol/sdk/validation/ajv';

interface Validators<Schema, Validate> {
  getValidator(schema: Schema): Validate;
}

function compiledOnce<Schema, Validate>(
  validators: Validators<Schema, Validate>,
): Validators<Schema, Validate> {
  const compiled = new Map<string, Validate>();
  return {
    getValidator(schema) {
      const key = JSON.stringify(schema);
      let validate = compiled.get(key);
      if (validate === undefined) {
        validate = validators.getValidator(schema);
        compiled.set(key, validate);
      }
      return validate;
    },
  };
}

export const SDK1_VALIDATORS = compiledOnce(new Sdk1Ajv()) as Sdk1Ajv;
export const V2_VALIDATORS = compiledOnce(new V2Ajv()) as V2Ajv;
