"""The SARIF 2.1.0 rules (OASIS SARIF 2.1.0 errata 01, section 3) for every
object lz4gate's results.sarif can contain, written here as a JSON Schema
for tests/jsonschema_lite.py. Each object lists every property the standard
defines for it (anything else is an error, as in the standard's schema),
the required ones, and the constraints on the values lz4gate fills in.
Objects lz4gate never writes are accepted as any object."""

ANY_OBJECT = {"type": "object"}
BAG = {"type": "object", "properties": {"tags": {
    "type": "array", "uniqueItems": True, "items": {"type": "string"}}}}
STRING = {"type": "string"}
INDEX = {"type": "integer", "minimum": -1}


def obj(props, required=(), **more):
    """An object of exactly these properties (the standard's property
    lists); a name mapped to None may hold any value lz4gate never writes."""
    schema = {"type": "object", "additionalProperties": False,
              "properties": {k: (v if v is not None else {}) for k, v in props.items()}}
    if required:
        schema["required"] = list(required)
    schema.update(more)
    return schema


def ref(name):
    return {"$ref": "#/definitions/" + name}


def array_of(item, unique=False, min_items=0):
    return {"type": "array", "items": item, "uniqueItems": unique, "minItems": min_items}


DEFINITIONS = {
    "propertyBag": BAG,
    # 3.11: a message has text or an id.
    "message": obj({"text": STRING, "markdown": STRING, "id": STRING,
                    "arguments": array_of(STRING), "properties": ref("propertyBag")},
                   anyOf=[{"required": ["text"]}, {"required": ["id"]}]),
    "multiformatMessageString": obj({"text": STRING, "markdown": STRING,
                                     "properties": ref("propertyBag")}, ["text"]),
    # 3.4: uri is a URI reference; uriBaseId names an originalUriBaseIds entry.
    "artifactLocation": obj({"uri": {"type": "string", "format": "uri-reference"},
                             "uriBaseId": STRING, "index": INDEX, "description": ref("message"),
                             "properties": ref("propertyBag")}),
    # 3.30: line and column numbers start at 1.
    "region": obj({"startLine": {"type": "integer", "minimum": 1},
                   "startColumn": {"type": "integer", "minimum": 1},
                   "endLine": {"type": "integer", "minimum": 1},
                   "endColumn": {"type": "integer", "minimum": 1},
                   "charOffset": INDEX, "charLength": {"type": "integer", "minimum": 0},
                   "byteOffset": INDEX, "byteLength": {"type": "integer", "minimum": 0},
                   "snippet": None, "sourceLanguage": STRING, "message": ref("message"),
                   "properties": ref("propertyBag")}),
    "physicalLocation": obj({"address": None, "artifactLocation": ref("artifactLocation"),
                             "region": ref("region"), "contextRegion": ref("region"),
                             "properties": ref("propertyBag")}),
    "logicalLocation": obj({"name": STRING, "index": INDEX, "fullyQualifiedName": STRING,
                            "decoratedName": STRING, "parentIndex": INDEX, "kind": STRING,
                            "properties": ref("propertyBag")}),
    "location": obj({"id": INDEX, "physicalLocation": ref("physicalLocation"),
                     "logicalLocations": array_of(ref("logicalLocation"), unique=True),
                     "message": ref("message"), "annotations": None, "relationships": None,
                     "properties": ref("propertyBag")}),
    # 3.27: level is one of four words; ruleIndex counts from -1 (none).
    "result": obj({"ruleId": STRING, "ruleIndex": INDEX, "rule": None,
                   "kind": {"enum": ["notApplicable", "pass", "fail", "review", "open",
                                     "informational"]},
                   "level": {"enum": ["none", "note", "warning", "error"]},
                   "message": ref("message"), "analysisTarget": ref("artifactLocation"),
                   "locations": array_of(ref("location")), "guid": STRING,
                   "correlationGuid": STRING, "occurrenceCount": {"type": "integer",
                                                                  "minimum": 1},
                   "partialFingerprints": {"type": "object",
                                           "additionalProperties": STRING},
                   "fingerprints": {"type": "object", "additionalProperties": STRING},
                   "stacks": None, "codeFlows": None, "graphs": None, "graphTraversals": None,
                   "relatedLocations": array_of(ref("location"), unique=True),
                   "suppressions": None, "baselineState": None,
                   "rank": {"type": "number", "minimum": -1, "maximum": 100},
                   "attachments": None, "hostedViewerUri": {"type": "string", "format": "uri"},
                   "workItemUris": None, "provenance": None, "fixes": None, "taxa": None,
                   "webRequest": None, "webResponse": None,
                   "properties": ref("propertyBag")}, ["message"]),
    "reportingDescriptor": obj({"id": STRING, "deprecatedIds": None, "guid": STRING,
                                "deprecatedGuids": None, "name": STRING, "deprecatedNames": None,
                                "shortDescription": ref("multiformatMessageString"),
                                "fullDescription": ref("multiformatMessageString"),
                                "messageStrings": None, "defaultConfiguration": None,
                                "helpUri": {"type": "string", "format": "uri"},
                                "help": ref("multiformatMessageString"), "relationships": None,
                                "properties": ref("propertyBag")}, ["id"]),
    # 3.19: a tool component needs a name; rules are unique.
    "toolComponent": obj({k: None for k in (
        "guid", "product", "fullName", "semanticVersion", "dottedQuadFileVersion",
        "releaseDateUtc", "downloadUri", "organization", "productSuite", "globalMessageStrings",
        "notifications", "taxa", "locations", "language", "contents", "isComprehensive",
        "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion",
        "associatedComponent", "translationMetadata", "supportedTaxonomies",
        "shortDescription", "fullDescription")} | {
        "name": STRING, "version": STRING,
        "informationUri": {"type": "string", "format": "uri"},
        "rules": array_of(ref("reportingDescriptor"), unique=True),
        "properties": ref("propertyBag")}, ["name"]),
    "tool": obj({"driver": ref("toolComponent"), "extensions": None,
                 "properties": ref("propertyBag")}, ["driver"]),
    "run": obj({k: None for k in (
        "invocations", "conversion", "language", "versionControlProvenance", "artifacts",
        "logicalLocations", "graphs", "automationDetails", "runAggregates", "baselineGuid",
        "redactionTokens", "defaultEncoding", "defaultSourceLanguage", "newlineSequences",
        "columnKind", "externalPropertyFileReferences", "threadFlowLocations", "taxonomies",
        "addresses", "translations", "policies", "webRequests", "webResponses",
        "specialLocations")} | {
        "tool": ref("tool"), "results": {"type": ["array", "null"], "items": ref("result")},
        # 3.14.14: each base id maps to an artifactLocation whose uri, when
        # absolute, ends with a slash (checked in the test).
        "originalUriBaseIds": {"type": "object", "additionalProperties": ref("artifactLocation")},
        "properties": ref("propertyBag")}, ["tool"]),
}

SARIF_2_1_0 = obj({"$schema": {"type": "string", "format": "uri"},
                   "version": {"enum": ["2.1.0"], "type": "string"},
                   "runs": {"type": ["array", "null"], "items": ref("run")},
                   "inlineExternalProperties": None, "properties": ref("propertyBag")},
                  ["version", "runs"], definitions=DEFINITIONS)
