"""Cross-checks between the deployment files and the server, which no schema
sees: every variable they set is one the server documents, the Kubernetes
objects point at each other, the probes and health check ask routes the
server has, and the ports agree. Run by deploy/check.sh; exits non-zero
listing every mismatch."""

import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"

# Values that are secret and so belong in the Secret, not the ConfigMap.
SECRET = {"DATABASE_URL", "JWT_KEYS", "SMTP_URL"}

errors = []


def check(ok, message):
    if not ok:
        errors.append(message)


def documented():
    """Every variable named in .env.example (set or commented out) and in
    the README's configuration table."""
    names = set(re.findall(r"(?m)^#?([A-Z][A-Z0-9_]*)=", (ROOT / ".env.example").read_text()))
    names |= set(re.findall(r"(?m)^\| `([A-Z][A-Z0-9_]*)` \|", (ROOT / "README.md").read_text()))
    return names


def port_of(bind):
    return int(bind.rsplit(":", 1)[1])


def k8s():
    docs = {}
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            docs[doc["kind"]] = doc
    return docs


def main():
    known = documented()
    routes = set(json.loads((ROOT / "openapi" / "openapi.json").read_text())["paths"])

    # Kubernetes.
    objs = k8s()
    config = objs["ConfigMap"]["data"]
    secret = objs["Secret"]["stringData"]
    for where, names in (("ConfigMap", config), ("Secret", secret)):
        for name in sorted(set(names) - known):
            check(False, f"k8s {where}: {name} is not a documented variable")
    check(not set(config) & set(secret), f"k8s: in both ConfigMap and Secret: {sorted(set(config) & set(secret))}")
    check(SECRET <= set(secret), f"k8s Secret lacks {sorted(SECRET - set(secret))}")
    # The data directory is unused with PostgreSQL and a JWT_KEYS.
    missing = known - {"HEXPOST_DATA_DIR"} - set(config) - set(secret)
    check(not missing, f"k8s: no ConfigMap or Secret entry for {sorted(missing)}")

    deploy = objs["Deployment"]
    job = objs["Job"]
    pod = deploy["spec"]["template"]
    server = pod["spec"]["containers"][0]
    migrate = job["spec"]["template"]["spec"]["containers"][0]
    check(deploy["spec"]["replicas"] >= 2, "k8s Deployment: fewer than two replicas")
    check(migrate["args"] == ["migrate"], f"k8s Job runs {migrate['args']}, not migrate")
    check(migrate["image"] == server["image"], "k8s: the Job and the Deployment run different images")
    for container in (server, migrate):
        for env in container.get("env", []):
            check(env["name"] in known, f"k8s {container['name']}: {env['name']} is not a documented variable")
        sources = {s.get("configMapRef", s.get("secretRef"))["name"] for s in container["envFrom"]}
        wanted = {objs["ConfigMap"]["metadata"]["name"], objs["Secret"]["metadata"]["name"]}
        check(sources == wanted, f"k8s {container['name']}: envFrom {sorted(sources)}, not {sorted(wanted)}")
    probes = {
        "readinessProbe": "/readyz",
        "livenessProbe": "/healthz",
        "startupProbe": "/healthz",
    }
    for probe, path in probes.items():
        got = server[probe]["httpGet"]["path"]
        check(got == path, f"k8s {probe} asks {got}, not {path}")
        check(got in routes, f"k8s {probe}: the server has no route {got}")
    ports = {p["name"]: p["containerPort"] for p in server["ports"]}
    check(ports.get("http") == port_of(config["HEXPOST_BIND"]), "k8s: containerPort is not the port of HEXPOST_BIND")
    service = objs["Service"]
    check(service["spec"]["ports"][0]["targetPort"] in ports, "k8s Service: targetPort names no container port")
    labels = pod["metadata"]["labels"]
    for kind in ("Service", "PodDisruptionBudget"):
        spec = objs[kind]["spec"]
        selector = spec["selector"].get("matchLabels", spec["selector"])
        check(selector.items() <= labels.items(), f"k8s {kind}: selector {selector} matches no server pod")
    check(deploy["spec"]["selector"]["matchLabels"].items() <= labels.items(), "k8s Deployment: selector does not match its pods")

    # Compose: the services that run the hexpost image.
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    hexposts = {n: s for n, s in compose["services"].items() if s.get("image") == "hexpost:local"}
    check({"migrate", "hexpost"} <= set(hexposts), "compose: no migrate and hexpost services on the hexpost image")
    for name, svc in hexposts.items():
        for var in sorted(set(svc["environment"]) - known):
            check(False, f"compose {name}: {var} is not a documented variable")
    check(hexposts["migrate"]["command"] == ["migrate"], "compose: the migrate service does not run migrate")
    bind_port = port_of(hexposts["hexpost"]["environment"]["HEXPOST_BIND"])
    published = [int(p.split(":")[-1]) for p in hexposts["hexpost"]["ports"]]
    check(bind_port in published, "compose: the published port is not the port of HEXPOST_BIND")

    # systemd: the environment file shows every setting, set or commented out.
    env_file = (DEPLOY / "systemd" / "hexpost.env").read_text()
    in_file = set(re.findall(r"(?m)^#?([A-Z][A-Z0-9_]*)=", env_file))
    check(in_file <= known, f"systemd env file: undocumented {sorted(in_file - known)}")
    check(known <= in_file, f"systemd env file: lacks {sorted(known - in_file)}")
    unit = (DEPLOY / "systemd" / "hexpost.service").read_text()
    for var in re.findall(r"(?m)^Environment=([A-Z_]+)=", unit):
        check(var in known, f"systemd unit: {var} is not a documented variable")

    # Dockerfile: the health check is the CLI's, and the port is the one exposed.
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    health = re.search(r'(?ms)^HEALTHCHECK .*?CMD \["([^"]+)", "healthcheck"\]', dockerfile)
    entry = re.search(r'(?m)^ENTRYPOINT \["([^"]+)"\]', dockerfile)
    check(health and entry and health.group(1) == entry.group(1),
          "Dockerfile: HEALTHCHECK does not run the entry point's healthcheck")
    bind = re.search(r"HEXPOST_BIND=(\S+)", dockerfile)
    exposed = re.search(r"(?m)^EXPOSE (\d+)", dockerfile)
    check(bind and exposed and port_of(bind.group(1)) == int(exposed.group(1)),
          "Dockerfile: EXPOSE is not the port of HEXPOST_BIND")
    user = re.findall(r"(?m)^USER (\S+)", dockerfile)
    check(user and user[-1].split(":")[0] not in ("0", "root"), "Dockerfile: the image runs as root")

    for e in errors:
        print(f"deploy: {e}", file=sys.stderr)
    if errors:
        sys.exit(1)
    print("deploy: the files agree with each other and with the server")


if __name__ == "__main__":
    main()
