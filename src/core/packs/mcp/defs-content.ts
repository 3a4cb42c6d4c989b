import { ENVELOPED, STATELESS, meta, objectMeta } from "./defs-shapes.ts";
import { anyOf, arr, bool, int, lit, type SchemaNode, type NodeObject, obj, oneOfStrings, record, ref, since, str, unit, until } from "./schema-dsl.ts";

/** Content blocks, resource contents, annotations, icons and the implementation description. */

const inlineAnnotations = (): NodeObject => obj({ audience: arr(ref("Role")), priority: unit() });

/** 2024-11-05 wrote annotations inline; 2025-03-26 named them. */
const annotations = since("2025-03-26", ref("Annotations"), inlineAnnotations());
const icons = since(ENVELOPED, arr(ref("Icon")));
const title = since("2025-06-18", str());

/** A content block: `type` names it, and every block may carry annotations and (later) `_meta`. */
function block(type: string, properties: Record<string, SchemaNode>, required: readonly string[]): NodeObject {
  return obj({ _meta: objectMeta, annotations, ...properties, type: lit(type) }, [...required, "type"]);
}

/** The blocks a tool result or prompt message may hold; named ContentBlock from 2025-06-18. */
export const contentBlock: SchemaNode = since(
  "2025-06-18",
  ref("ContentBlock"),
  anyOf(ref("TextContent"), ref("ImageContent"), since("2025-03-26", ref("AudioContent")), ref("EmbeddedResource")),
);

/** What a sampling message or result may hold: media only at first, tool use and results from 2025-11-25. */
export const samplingContent: SchemaNode = since(
  ENVELOPED,
  anyOf(ref("TextContent"), ref("ImageContent"), ref("AudioContent"), ref("ToolUseContent"), ref("ToolResultContent"), arr(ref("SamplingMessageContentBlock"))),
  anyOf(ref("TextContent"), ref("ImageContent"), since("2025-03-26", ref("AudioContent"))),
);

const resourceContents = (extra: Record<string, SchemaNode>, required: readonly string[]): NodeObject =>
  obj({ _meta: objectMeta, mimeType: str(), uri: str("uri"), ...extra }, [...required, "uri"]);

export const contentDefs: Record<string, SchemaNode> = {
  Role: oneOfStrings("assistant", "user"),
  Annotated: until("2025-03-26", obj({ annotations: inlineAnnotations() })),
  Annotations: since("2025-03-26", obj({ audience: arr(ref("Role")), lastModified: since("2025-06-18", str()), priority: unit() })),

  TextContent: block("text", { text: str() }, ["text"]),
  ImageContent: block("image", { data: str("byte"), mimeType: str() }, ["data", "mimeType"]),
  AudioContent: since("2025-03-26", block("audio", { data: str("byte"), mimeType: str() }, ["data", "mimeType"])),
  ResourceLink: since(
    "2025-06-18",
    block(
      "resource_link",
      { description: str(), icons, mimeType: str(), name: str(), size: int(), title, uri: str("uri") },
      ["name", "uri"],
    ),
  ),
  EmbeddedResource: block("resource", { resource: anyOf(ref("TextResourceContents"), ref("BlobResourceContents")) }, ["resource"]),
  ContentBlock: since(
    "2025-06-18",
    anyOf(ref("TextContent"), ref("ImageContent"), ref("AudioContent"), ref("ResourceLink"), ref("EmbeddedResource")),
  ),
  ToolUseContent: since(ENVELOPED, obj({ _meta: meta.object, id: str(), input: record({}), name: str(), type: lit("tool_use") }, ["id", "input", "name", "type"])),
  ToolResultContent: since(
    ENVELOPED,
    obj(
      {
        _meta: meta.object,
        content: arr(ref("ContentBlock")),
        isError: bool(),
        structuredContent: since(STATELESS, {}, record({})),
        toolUseId: str(),
        type: lit("tool_result"),
      },
      ["content", "toolUseId", "type"],
    ),
  ),
  SamplingMessageContentBlock: since(
    ENVELOPED,
    anyOf(ref("TextContent"), ref("ImageContent"), ref("AudioContent"), ref("ToolUseContent"), ref("ToolResultContent")),
  ),

  ResourceContents: resourceContents({}, []),
  TextResourceContents: resourceContents({ text: str() }, ["text"]),
  BlobResourceContents: resourceContents({ blob: str("byte") }, ["blob"]),

  Icon: since(ENVELOPED, obj({ mimeType: str(), sizes: arr(str()), src: str("uri"), theme: oneOfStrings("dark", "light") }, ["src"])),
  Icons: since(ENVELOPED, obj({ icons: arr(ref("Icon")) })),
  BaseMetadata: since("2025-06-18", obj({ name: str(), title: str() }, ["name"])),
  Implementation: obj(
    { description: since(ENVELOPED, str()), icons, name: str(), title, version: str(), websiteUrl: since(ENVELOPED, str("uri")) },
    ["name", "version"],
  ),
};

/** Shared with resources and prompts, which carry the same descriptive members. */
export const describedBy = { annotations, icons, title };
