"""Confluent's Python client (Debian's python3-confluent-kafka) against a Quire node whose subject
has a lint config beside its level: the client's config calls and a registration still work.
Usage: /usr/bin/python3 lint_config.py <registry url>. Prints one line per check, ALL OK at the end."""
import json
import sys
import urllib.request

from confluent_kafka.schema_registry import Schema, SchemaRegistryClient

url = sys.argv[1]
subject = "py-linted-value"


def check(name, ok, detail=""):
    if not ok:
        print(f"FAIL {name}: {detail}")
        sys.exit(1)
    print(f"OK {name}")


def http(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method,
                                 headers={"Content-Type": "application/vnd.schemaregistry.v1+json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


http("PUT", f"/config/{subject}", {"compatibility": "FULL", "lint": {"profile": "MINIMAL", "action": "WARN"}})
client = SchemaRegistryClient({"url": url})
level = client.get_compatibility(subject)
check("the client reads the level of a subject with a lint config", level == "FULL", level)
client.set_compatibility(subject, "BACKWARD")
after = http("GET", f"/config/{subject}")
check("the client sets the level and the lint config stays",
      after.get("compatibilityLevel") == "BACKWARD" and after.get("lint", {}).get("profile") == "MINIMAL", after)
schema_id = client.register_schema(subject, Schema(json.dumps(
    {"type": "record", "name": "Linted", "fields": [{"name": "id", "type": "int"}]}), "AVRO"))
check("the client registers a schema the warning lint reports on", isinstance(schema_id, int) and schema_id > 0,
      schema_id)
print("ALL OK")
