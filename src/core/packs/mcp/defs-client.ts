import { samplingContent } from "./defs-content.ts";
import { named } from "./defs-server.ts";
import { ENVELOPED, STATELESS, bareNotification, legacyRequestParams, meta, notification, objectMeta, request } from "./defs-shapes.ts";
import {
  anyOf,
  arr,
  between,
  bool,
  int,
  lit,
  looseObject,
  type SchemaNode,
  type NodeObject,
  num,
  obj,
  oneOfStrings,
  record,
  ref,
  since,
  str,
  unit,
  until,
} from "./schema-dsl.ts";

/** What clients offer servers: sampling, roots and elicitation, with elicitation's form schemas. */

const requestMetaUntilStateless = between(ENVELOPED, STATELESS, meta.request);
const taskUntilStateless = between(ENVELOPED, STATELESS, ref("TaskMetadata"));

const createMessageParams = obj(
  {
    _meta: requestMetaUntilStateless,
    includeContext: oneOfStrings("allServers", "none", "thisServer"),
    maxTokens: int(),
    messages: arr(ref("SamplingMessage")),
    metadata: since(STATELESS, ref("JSONObject"), looseObject()),
    modelPreferences: ref("ModelPreferences"),
    stopSequences: arr(str()),
    systemPrompt: str(),
    task: taskUntilStateless,
    temperature: num(),
    toolChoice: since(ENVELOPED, ref("ToolChoice")),
    tools: since(ENVELOPED, arr(ref("Tool"))),
  },
  ["maxTokens", "messages"],
);

const requestedSchema = obj(
  { $schema: since(ENVELOPED, str()), properties: record(ref("PrimitiveSchemaDefinition")), required: arr(str()), type: lit("object") },
  ["properties", "type"],
);

/** Common members of the field schemas an elicitation form may ask for. */
function field(type: SchemaNode, extra: Record<string, SchemaNode>, required: readonly string[]): NodeObject {
  return obj({ description: str(), title: str(), ...extra, type }, [...required, "type"]);
}

const titledOption = (): NodeObject => obj({ const: str(), title: str() }, ["const", "title"]);
const stringList = (): NodeObject => arr(str());

/**
 * An answer in an elicitation result: a string, a number or a boolean, and from 2025-11-25 a list
 * of strings (multi-select). Any number, as the specification's TypeScript says (a NumberSchema
 * field may be "number"); the generated schema.json narrows it to integer (see the pack notes).
 */
const elicitedScalar = { type: ["string", "number", "boolean"] };
const elicitedValue = since(ENVELOPED, anyOf(arr(str()), elicitedScalar), elicitedScalar);

export const clientDefs: Record<string, SchemaNode> = {
  ModelHint: obj({ name: str() }),
  ModelPreferences: obj({ costPriority: unit(), hints: arr(ref("ModelHint")), intelligencePriority: unit(), speedPriority: unit() }),
  SamplingMessage: obj({ _meta: since(ENVELOPED, meta.object), content: samplingContent, role: ref("Role") }, ["content", "role"]),
  CreateMessageRequestParams: since(ENVELOPED, createMessageParams),
  CreateMessageRequest: request("sampling/createMessage", named("CreateMessageRequestParams", createMessageParams), "params", STATELESS),
  CreateMessageResult: obj(
    { _meta: since(STATELESS, ref("MetaObject"), record({})), content: samplingContent, model: str(), role: ref("Role"), stopReason: str() },
    ["content", "model", "role"],
  ),

  Root: obj({ _meta: objectMeta, name: str(), uri: str("uri") }, ["uri"]),
  ListRootsRequest: request(
    "roots/list",
    since(STATELESS, obj({ _meta: ref("MetaObject") }), since(ENVELOPED, ref("RequestParams"), legacyRequestParams())),
    null,
    STATELESS,
  ),
  ListRootsResult: obj({ _meta: until(STATELESS, record({})), roots: arr(ref("Root")) }, ["roots"]),
  RootsListChangedNotification: until(STATELESS, bareNotification("notifications/roots/list_changed")),

  ElicitRequest: since(
    "2025-06-18",
    request(
      "elicitation/create",
      since(ENVELOPED, ref("ElicitRequestParams"), obj({ message: str(), requestedSchema }, ["message", "requestedSchema"])),
      "params",
      STATELESS,
    ),
  ),
  ElicitRequestParams: since(ENVELOPED, anyOf(ref("ElicitRequestURLParams"), ref("ElicitRequestFormParams"))),
  ElicitRequestFormParams: since(
    ENVELOPED,
    obj({ _meta: requestMetaUntilStateless, message: str(), mode: lit("form"), requestedSchema, task: taskUntilStateless }, [
      "message",
      "requestedSchema",
    ]),
  ),
  ElicitRequestURLParams: since(
    ENVELOPED,
    obj(
      {
        _meta: requestMetaUntilStateless,
        elicitationId: until(STATELESS, str()),
        message: str(),
        mode: lit("url"),
        task: taskUntilStateless,
        url: str("uri"),
      },
      ["elicitationId", "message", "mode", "url"],
    ),
  ),
  ElicitResult: since(
    "2025-06-18",
    obj({ _meta: until(STATELESS, record({})), action: oneOfStrings("accept", "cancel", "decline"), content: record(elicitedValue) }, ["action"]),
  ),
  ElicitationCompleteNotification: between(
    ENVELOPED,
    STATELESS,
    notification("notifications/elicitation/complete", obj({ elicitationId: str() }, ["elicitationId"]), true),
  ),

  PrimitiveSchemaDefinition: since(
    "2025-06-18",
    since(
      ENVELOPED,
      anyOf(
        ref("StringSchema"),
        ref("NumberSchema"),
        ref("BooleanSchema"),
        ref("UntitledSingleSelectEnumSchema"),
        ref("TitledSingleSelectEnumSchema"),
        ref("UntitledMultiSelectEnumSchema"),
        ref("TitledMultiSelectEnumSchema"),
        ref("LegacyTitledEnumSchema"),
      ),
      anyOf(ref("StringSchema"), ref("NumberSchema"), ref("BooleanSchema"), ref("EnumSchema")),
    ),
  ),
  StringSchema: since(
    "2025-06-18",
    field(
      lit("string"),
      { default: since(ENVELOPED, str()), format: oneOfStrings("date", "date-time", "email", "uri"), maxLength: int(), minLength: int() },
      [],
    ),
  ),
  NumberSchema: since("2025-06-18", field(oneOfStrings("integer", "number"), { default: since(ENVELOPED, num()), maximum: num(), minimum: num() }, [])),
  BooleanSchema: since("2025-06-18", field(lit("boolean"), { default: bool() }, [])),
  EnumSchema: since(
    "2025-06-18",
    since(
      ENVELOPED,
      anyOf(
        ref("UntitledSingleSelectEnumSchema"),
        ref("TitledSingleSelectEnumSchema"),
        ref("UntitledMultiSelectEnumSchema"),
        ref("TitledMultiSelectEnumSchema"),
        ref("LegacyTitledEnumSchema"),
      ),
      field(lit("string"), { enum: stringList(), enumNames: stringList() }, ["enum"]),
    ),
  ),
  UntitledSingleSelectEnumSchema: since(ENVELOPED, field(lit("string"), { default: str(), enum: stringList() }, ["enum"])),
  TitledSingleSelectEnumSchema: since(ENVELOPED, field(lit("string"), { default: str(), oneOf: arr(titledOption()) }, ["oneOf"])),
  LegacyTitledEnumSchema: since(ENVELOPED, field(lit("string"), { default: str(), enum: stringList(), enumNames: stringList() }, ["enum"])),
  UntitledMultiSelectEnumSchema: since(
    ENVELOPED,
    field(
      lit("array"),
      { default: stringList(), items: obj({ enum: stringList(), type: lit("string") }, ["enum", "type"]), maxItems: int(), minItems: int() },
      ["items"],
    ),
  ),
  TitledMultiSelectEnumSchema: since(
    ENVELOPED,
    field(lit("array"), { default: stringList(), items: obj({ anyOf: arr(titledOption()) }, ["anyOf"]), maxItems: int(), minItems: int() }, ["items"]),
  ),
  SingleSelectEnumSchema: since(ENVELOPED, anyOf(ref("UntitledSingleSelectEnumSchema"), ref("TitledSingleSelectEnumSchema"))),
  MultiSelectEnumSchema: since(ENVELOPED, anyOf(ref("UntitledMultiSelectEnumSchema"), ref("TitledMultiSelectEnumSchema"))),
};
