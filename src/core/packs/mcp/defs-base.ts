import {
  ENVELOPED,
  STATELESS,
  legacyNotificationParams,
  legacyRequestParams,
  meta,
  notificationParams,
  params,
  result,
} from "./defs-shapes.ts";
import {
  allOf,
  anyOf,
  anything,
  arr,
  between,
  code,
  int,
  lit,
  type SchemaNode,
  type NodeObject,
  obj,
  record,
  ref,
  since,
  str,
  until,
} from "./schema-dsl.ts";

/** JSON-RPC framing, the common request/notification/result bases, errors and `_meta` objects. */

const idOrInteger = (): NodeObject => ({ type: ["string", "integer"] });
const jsonrpc = lit("2.0");

/** The generic params of a request: typed `_meta.progressToken` until 2025-11-25, then free-form. */
const requestParamsAny = since(ENVELOPED, record({}), legacyRequestParams());
const notificationParamsAny = since(ENVELOPED, record({}), legacyNotificationParams());

export const errorObject = (errorCode?: number): NodeObject =>
  obj({ code: errorCode === undefined ? int() : code(errorCode), data: anything(), message: str() }, ["code", "message"]);

/** A whole error response whose error object narrows the common one (2025-11-25 and later). */
const typedErrorResponse = (narrowed: NodeObject): NodeObject =>
  obj({ error: allOf(ref("Error"), narrowed), id: ref("RequestId"), jsonrpc }, ["error", "jsonrpc"]);

export const baseDefs: Record<string, SchemaNode> = {
  RequestId: idOrInteger(),
  ProgressToken: idOrInteger(),
  Cursor: str(),

  JSONRPCRequest: obj({ id: ref("RequestId"), jsonrpc, method: str(), params: requestParamsAny }, ["id", "jsonrpc", "method"]),
  JSONRPCNotification: obj({ jsonrpc, method: str(), params: notificationParamsAny }, ["jsonrpc", "method"]),
  JSONRPCResponse: since(
    ENVELOPED,
    anyOf(ref("JSONRPCResultResponse"), ref("JSONRPCErrorResponse")),
    obj({ id: ref("RequestId"), jsonrpc, result: ref("Result") }, ["id", "jsonrpc", "result"]),
  ),
  JSONRPCResultResponse: since(ENVELOPED, obj({ id: ref("RequestId"), jsonrpc, result: ref("Result") }, ["id", "jsonrpc", "result"])),
  JSONRPCError: until(ENVELOPED, obj({ error: errorObject(), id: ref("RequestId"), jsonrpc }, ["error", "id", "jsonrpc"])),
  JSONRPCErrorResponse: since(ENVELOPED, obj({ error: ref("Error"), id: ref("RequestId"), jsonrpc }, ["error", "jsonrpc"])),
  JSONRPCBatchRequest: between("2025-03-26", "2025-06-18", arr(anyOf(ref("JSONRPCRequest"), ref("JSONRPCNotification")))),
  JSONRPCBatchResponse: between("2025-03-26", "2025-06-18", arr(anyOf(ref("JSONRPCResponse"), ref("JSONRPCError")))),
  JSONRPCMessage: anyOf(
    ref("JSONRPCRequest"),
    ref("JSONRPCNotification"),
    between("2025-03-26", "2025-06-18", arr(anyOf(ref("JSONRPCRequest"), ref("JSONRPCNotification")))),
    since(ENVELOPED, ref("JSONRPCResultResponse"), ref("JSONRPCResponse")),
    since(ENVELOPED, ref("JSONRPCErrorResponse"), ref("JSONRPCError")),
    between("2025-03-26", "2025-06-18", arr(anyOf(ref("JSONRPCResponse"), ref("JSONRPCError")))),
  ),

  Request: obj({ method: str(), params: requestParamsAny }, ["method"]),
  Notification: obj({ method: str(), params: notificationParamsAny }, ["method"]),
  Result: obj({ _meta: meta.result, resultType: since(STATELESS, str()) }, ["resultType"], { additionalProperties: {} }),
  EmptyResult: ref("Result"),
  RequestParams: since(ENVELOPED, params({})),
  NotificationParams: since(ENVELOPED, notificationParams({})),
  PaginatedRequestParams: since(ENVELOPED, params({ cursor: str() })),
  PaginatedRequest: obj(
    {
      id: since(ENVELOPED, ref("RequestId")),
      jsonrpc: since(ENVELOPED, jsonrpc),
      method: str(),
      params: since(ENVELOPED, ref("PaginatedRequestParams"), obj({ cursor: str() })),
    },
    ["id", "jsonrpc", "method", since(STATELESS, "params")],
  ),
  PaginatedResult: result({ nextCursor: str() }, []),

  Error: since(ENVELOPED, errorObject()),
  ParseError: since(STATELESS, errorObject(-32700)),
  InvalidRequestError: since(STATELESS, errorObject(-32600)),
  MethodNotFoundError: since(STATELESS, errorObject(-32601)),
  InvalidParamsError: since(STATELESS, errorObject(-32602)),
  InternalError: since(STATELESS, errorObject(-32603)),
  URLElicitationRequiredError: between(
    ENVELOPED,
    STATELESS,
    typedErrorResponse(
      obj({ code: code(-32042), data: obj({ elicitations: arr(ref("ElicitRequestURLParams")) }, ["elicitations"], { additionalProperties: {} }) }, [
        "code",
        "data",
      ]),
    ),
  ),
  HeaderMismatchError: since(STATELESS, typedErrorResponse(obj({ code: code(-32020) }, ["code"]))),
  MissingRequiredClientCapabilityError: since(
    STATELESS,
    typedErrorResponse(obj({ code: code(-32021), data: obj({ requiredCapabilities: ref("ClientCapabilities") }, ["requiredCapabilities"]) }, ["code", "data"])),
  ),
  UnsupportedProtocolVersionError: since(
    STATELESS,
    typedErrorResponse(obj({ code: code(-32022), data: obj({ requested: str(), supported: arr(str()) }, ["requested", "supported"]) }, ["code", "data"])),
  ),

  MetaObject: since(STATELESS, { type: "object" }),
  RequestMetaObject: since(
    STATELESS,
    obj(
      {
        progressToken: ref("ProgressToken"),
        "io.modelcontextprotocol/protocolVersion": str(),
        "io.modelcontextprotocol/clientInfo": ref("Implementation"),
        "io.modelcontextprotocol/clientCapabilities": ref("ClientCapabilities"),
        "io.modelcontextprotocol/logLevel": ref("LoggingLevel"),
      },
      ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"],
    ),
  ),
  NotificationMetaObject: since(STATELESS, obj({ "io.modelcontextprotocol/subscriptionId": ref("RequestId") })),
  ResultMetaObject: since(STATELESS, obj({ "io.modelcontextprotocol/serverInfo": ref("Implementation") })),
  ResultType: since(STATELESS, str()),
  CacheableResult: since(STATELESS, result({}, [], { cacheable: true })),

  // Any JSON value. Upstream's generated schema lists only string, integer and boolean leaves;
  // the TypeScript it is generated from allows every JSON value, and so do we.
  JSONValue: since(STATELESS, anyOf(ref("JSONObject"), arr(ref("JSONValue")), { type: ["string", "number", "boolean", "null"] })),
  JSONObject: since(STATELESS, record(ref("JSONValue"))),
  JSONArray: since(STATELESS, arr(ref("JSONValue"))),
};
