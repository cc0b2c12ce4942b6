// deploy/k8s/test.sh runs this on every rendered overlay: node validate.mjs REPO_ROOT FILE.yaml...
//
// 1. Every object against its API schema: the JSON schemas that the npm package kubernetes-models generates from
//    the Kubernetes OpenAPI document (built-in kinds), and @kubernetes-models/prometheus-operator and
//    @kubernetes-models/keda from those projects' CRDs (ServiceMonitor, PrometheusRule, ScaledObject): required
//    fields, types, enums and formats (int32, quantities as int-or-string, ...). What they do NOT check: unknown
//    fields (their schemas allow additional properties, as a non-strict API server does), and anything only an
//    API server's admission knows (defaulting, immutable fields, quotas, the CRDs being installed).
// 2. The rules of deploy/k8s/README.md that a schema cannot say: references resolve (Secrets, ConfigMaps, Service and
//    PDB selectors, scale targets), probes name the actuator groups on a declared port, memory limits stay under
//    512 MiB, the relay has exactly two replicas and is the target of no autoscaler.
// 3. Every toolonce_* metric the rules, the dashboard and the autoscaler use is a meter registered in the code
//    (a Micrometer name found in a .java file under src/main, with Prometheus's suffixes for its type).
import fs from "node:fs";
import path from "node:path";
import yaml from "js-yaml";
import * as core from "kubernetes-models/v1";
import * as apps from "kubernetes-models/apps/v1";
import * as policy from "kubernetes-models/policy/v1";
import * as autoscaling from "kubernetes-models/autoscaling/v2";
import * as monitoring from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
import * as keda from "@kubernetes-models/keda/keda.sh/v1alpha1";

const MODELS = {
  "v1/ConfigMap": core.ConfigMap, "v1/Secret": core.Secret, "v1/Service": core.Service,
  "v1/Namespace": core.Namespace, "v1/Pod": core.Pod,
  "apps/v1/Deployment": apps.Deployment, "policy/v1/PodDisruptionBudget": policy.PodDisruptionBudget,
  "autoscaling/v2/HorizontalPodAutoscaler": autoscaling.HorizontalPodAutoscaler,
  "monitoring.coreos.com/v1/ServiceMonitor": monitoring.ServiceMonitor,
  "monitoring.coreos.com/v1/PrometheusRule": monitoring.PrometheusRule,
  "keda.sh/v1alpha1/ScaledObject": keda.ScaledObject,
};
const MAX_MEMORY = 512 * 1024 * 1024;

const [repo, ...files] = process.argv.slice(2);
let failures = 0, checked = 0;
const fail = (file, what) => { failures++; console.log(`FAIL ${file}: ${what}`); };

function bytes(q) {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(String(q));
  if (!m) return NaN;
  const f = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, k: 1e3, M: 1e6, G: 1e9 }[m[2]] ?? 1;
  return Number(m[1]) * f;
}
const matches = (selector, labels) => selector !== undefined && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

// ---------------------------------------------------------------- the meters the code registers
function javaFiles(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (!["target", ".git", "node_modules", ".local"].includes(e.name)) javaFiles(p, out); }
    else if (e.name.endsWith(".java") && p.includes(`${path.sep}src${path.sep}main${path.sep}`)) out.push(p);
  }
  return out;
}
// A Micrometer meter is found by its builder, with its type, and named as Prometheus names it: a counter
// NAME_total, a timer NAME_seconds_{bucket,count,sum,max}, a gauge NAME or NAME_<base unit>. The name is a literal
// or a constant of the same file; the helpers count()/counter() build counters, RelayProbes' gauge() gauges.
const promNames = new Map();   // Prometheus name -> [meter, type, file]
const add = (meter, type, unit, file) => {
  const base = meter.replaceAll(".", "_");
  const names = type === "counter" ? [base + "_total"]
    : type === "timer" ? ["bucket", "count", "sum", "max"].map((x) => `${base}_seconds_${x}`)
    : [unit ? `${base}_${unit}` : base];
  for (const n of names) if (!promNames.has(n)) promNames.set(n, [meter, type, file]);
};
for (const f of javaFiles(repo)) {
  const src = fs.readFileSync(f, "utf8"), file = path.relative(repo, f);
  const constants = new Map([...src.matchAll(/\b([A-Z][A-Z_]+)\s*=\s*"(toolonce(?:\.[a-z_]+)+)"/g)].map((m) => [m[1], m[2]]));
  const nameOf = (token) => token.startsWith('"') ? token.slice(1, -1) : constants.get(token);
  for (const m of src.matchAll(/\b(Counter|Timer|Gauge)\.builder\(\s*("toolonce[^"]*"|[A-Z][A-Z_]+)([^;]*)/g)) {
    const meter = nameOf(m[2]); if (!meter) continue;
    add(meter, m[1].toLowerCase(), /\.baseUnit\("([a-z]+)"\)/.exec(m[3])?.[1], file);
  }
  for (const m of src.matchAll(/\b(?:count|counter)\(\s*"(toolonce(?:\.[a-z_]+)+)"/g)) add(m[1], "counter", null, file);
  for (const m of src.matchAll(/\bgauge\(registry,\s*([A-Z][A-Z_]+),[^;]*?,\s*(?:"([a-z]+)"|null)\s*,/g)) {
    const meter = nameOf(m[1]); if (meter) add(meter, "gauge", m[2], file);
  }
}

// ---------------------------------------------------------------- per file
const used = new Map();
for (const file of files) {
  const docs = yaml.loadAll(fs.readFileSync(file, "utf8")).filter(Boolean);
  const byKind = (k) => docs.filter((d) => d.kind === k);
  const named = (k, n) => docs.some((d) => d.kind === k && d.metadata?.name === n);
  for (const doc of docs) {
    checked++;
    const id = `${doc.kind}/${doc.metadata?.name}`;
    const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
    if (!Model) { fail(file, `${id}: no schema for ${doc.apiVersion} ${doc.kind}`); continue; }
    try { new Model(doc).validate(); } catch (e) { fail(file, `${id}: ${e.message}`); }
  }
  // references
  for (const d of [...byKind("Deployment"), ...byKind("Pod")]) {
    const spec = d.kind === "Pod" ? d.spec : d.spec.template.spec;
    const labels = d.kind === "Pod" ? d.metadata.labels : d.spec.template.metadata.labels;
    const id = `${d.kind}/${d.metadata.name}`;
    if (d.kind === "Deployment" && !matches(d.spec.selector?.matchLabels, labels)) fail(file, `${id}: selector does not match its template`);
    for (const v of spec.volumes ?? []) {
      for (const s of v.projected?.sources ?? []) {
        if (s.secret && !named("Secret", s.secret.name)) fail(file, `${id}: volume ${v.name} names a missing Secret ${s.secret.name}`);
        if (s.configMap && !named("ConfigMap", s.configMap.name)) fail(file, `${id}: volume ${v.name} names a missing ConfigMap ${s.configMap.name}`);
      }
      if (v.secret && !named("Secret", v.secret.secretName)) fail(file, `${id}: missing Secret ${v.secret.secretName}`);
      if (v.configMap && !named("ConfigMap", v.configMap.name)) fail(file, `${id}: missing ConfigMap ${v.configMap.name}`);
    }
    for (const c of spec.containers) {
      for (const e of c.envFrom ?? []) {
        if (e.secretRef && !named("Secret", e.secretRef.name)) fail(file, `${id}: envFrom names a missing Secret ${e.secretRef.name}`);
        if (e.configMapRef && !named("ConfigMap", e.configMapRef.name)) fail(file, `${id}: envFrom names a missing ConfigMap ${e.configMapRef.name}`);
      }
      for (const m of c.volumeMounts ?? []) if (!(spec.volumes ?? []).some((v) => v.name === m.name)) fail(file, `${id}: mount ${m.name} has no volume`);
      const ports = new Set((c.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
      for (const [probe, group] of [["readinessProbe", "readiness"], ["livenessProbe", "liveness"]]) {
        const g = c[probe]?.httpGet;
        if (!g) { fail(file, `${id}: ${c.name} has no ${probe}`); continue; }
        if (g.path !== `/actuator/health/${group}`) fail(file, `${id}: ${probe} on ${g.path}, not /actuator/health/${group}`);
        if (!ports.has(g.port) && !(spec.hostNetwork && Number.isInteger(g.port))) fail(file, `${id}: ${probe} port ${g.port} is not a port of ${c.name}`);
      }
      const limit = bytes(c.resources?.limits?.memory), request = bytes(c.resources?.requests?.memory);
      if (!(limit <= MAX_MEMORY)) fail(file, `${id}: memory limit ${c.resources?.limits?.memory} is not at most 512Mi`);
      if (!(request <= limit)) fail(file, `${id}: memory request ${c.resources?.requests?.memory} above its limit`);
    }
  }
  for (const s of byKind("Service")) {
    if (!byKind("Deployment").some((d) => matches(s.spec.selector, d.spec.template.metadata.labels))) fail(file, `Service/${s.metadata.name} selects no Deployment`);
  }
  for (const p of byKind("PodDisruptionBudget")) {
    if (!byKind("Deployment").some((d) => matches(p.spec.selector?.matchLabels, d.spec.template.metadata.labels))) fail(file, `PodDisruptionBudget/${p.metadata.name} selects no Deployment`);
  }
  const relay = byKind("Deployment").find((d) => d.metadata.name === "outbox-relay");
  if (relay && relay.spec.replicas !== 2) fail(file, `outbox-relay has ${relay.spec.replicas} replicas: active + standby is 2`);
  // an MCP session lives in the gateway pod that opened it: more than one pod needs the Service to keep a client on one
  const gateway = byKind("Deployment").find((d) => d.metadata.name === "mcp-gateway");
  const gatewayService = byKind("Service").find((x) => x.metadata.name === "mcp-gateway");
  if (gateway && gateway.spec.replicas > 1 && gatewayService?.spec.sessionAffinity !== "ClientIP") {
    fail(file, `mcp-gateway has ${gateway.spec.replicas} replicas but its Service has no sessionAffinity: ClientIP`);
  }
  for (const a of [...byKind("ScaledObject"), ...byKind("HorizontalPodAutoscaler")]) {
    const target = a.spec.scaleTargetRef.name;
    if (target === "outbox-relay") fail(file, `${a.kind}/${a.metadata.name} scales the relay, which is never autoscaled`);
    if (!named("Deployment", target)) fail(file, `${a.kind}/${a.metadata.name} targets a missing Deployment ${target}`);
  }
  // metric names: in rules, autoscaler queries, and the dashboard ConfigMap's JSON
  const texts = [
    ...byKind("PrometheusRule").flatMap((r) => r.spec.groups.flatMap((g) => g.rules.map((x) => x.expr))),
    ...byKind("ScaledObject").flatMap((s) => s.spec.triggers.map((t) => t.metadata?.query ?? "")),
    ...byKind("ConfigMap").filter((c) => c.metadata.labels?.grafana_dashboard).flatMap((c) => Object.values(c.data)),
  ];
  for (const t of texts) for (const m of String(t).matchAll(/\btoolonce_[a-z_]+/g)) {
    if (!promNames.has(m[0])) fail(file, `metric ${m[0]} is registered by no meter in the code`);
    else used.set(m[0], promNames.get(m[0]));
  }
  console.log(`${path.basename(path.dirname(file)) === "rendered" ? path.basename(file) : file}: ${docs.length} objects`);
}
for (const [name, [meter, type, file]] of [...used].sort()) console.log(`  metric ${name} <- ${type} ${meter} (${file})`);
console.log(`${checked} objects checked, ${failures} failures`);
process.exit(failures ? 1 : 0);
