// openapi-fetch's types hold at compile time only. This middleware checks
// at run time, against the same document the types came from, every
// request body sent and every JSON response received, so a response the
// spec does not describe fails the run.

import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Middleware } from "openapi-fetch";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const DOC_ID = "https://hexpost.invalid/openapi.json";

type Document = {
  paths: Record<string, Record<string, Operation>>;
};
type Operation = {
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};

export class SchemaMismatch extends Error {}

export function validating(specPath: string): Middleware {
  const doc = JSON.parse(readFileSync(specPath, "utf8")) as Document;
  // strict: false lets the OpenAPI keywords (`example`, `paths`, …) pass
  // as annotations; every JSON Schema keyword still applies.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const integer of ["int32", "int64", "uint8", "uint16", "uint32", "uint64"]) {
    ajv.addFormat(integer, { type: "number", validate: Number.isInteger });
  }
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string[]): ValidateFunction => {
    const fragment = pointer.map((p) => encodeURIComponent(p.replaceAll("~", "~0").replaceAll("/", "~1"))).join("/");
    let v = compiled.get(fragment);
    if (!v) {
      v = ajv.compile({ $ref: `${DOC_ID}#/${fragment}` });
      compiled.set(fragment, v);
    }
    return v;
  };
  const check = (what: string, pointer: string[], body: unknown) => {
    const v = validator(pointer);
    if (!v(body)) {
      const errors = ajv.errorsText(v.errors?.slice(0, 5));
      throw new SchemaMismatch(`${what} does not match its schema: ${errors}\n${JSON.stringify(body).slice(0, 1500)}`);
    }
  };
  return {
    async onRequest({ request, schemaPath }) {
      const method = request.method.toLowerCase();
      const op = doc.paths[schemaPath]?.[method];
      if (!op) throw new SchemaMismatch(`${method} ${schemaPath} is not in the spec`);
      if (op.requestBody && request.body) {
        const body: unknown = await request.clone().json();
        check(`${method} ${schemaPath} request`, ["paths", schemaPath, method, "requestBody", "content", "application/json", "schema"], body);
      }
      return undefined;
    },
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const status = String(response.status);
      const described = doc.paths[schemaPath]?.[method]?.responses[status];
      if (!described) throw new SchemaMismatch(`${method} ${schemaPath}: ${status} is not a documented response`);
      const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
      if (!described.content || response.status === 304) return undefined;
      if (!(type in described.content)) {
        throw new SchemaMismatch(`${method} ${schemaPath} ${status}: ${type} is not a documented content type`);
      }
      const body: unknown = await response.clone().json();
      check(`${method} ${schemaPath} ${status}`, ["paths", schemaPath, method, "responses", status, "content", type, "schema"], body);
      return undefined;
    },
  };
}
