"""deploy/kubernetes/: valid for Kubernetes (its schemas, offline), complete for kustomize, and in agreement
with the image (its port, user, volume, stop) and the app (its routes, settings, hosts, database timeout)."""

import itertools
import json
import re
import shlex
import tomllib
from types import SimpleNamespace
from urllib.parse import urlsplit

import kubernetes_validate
import pytest
import yaml

from app import config
from tests.support import dockerfile
from tests.support.servers import PROJECT_ROOT

KUBERNETES = PROJECT_ROOT / "deploy" / "kubernetes"
KUSTOMIZATION = KUBERNETES / "kustomization.yaml"
# The oldest Kubernetes the manifests are meant for and the newest kubernetes-validate ships schemas for.
VERSIONS = ["1.30.0", "1.37.0"]
# Set by the image (Dockerfile ENV), not an app setting, and may be set like one.
AROUND_THE_APP = {"FLASK_INSTANCE_PATH"}


def manifests():
    """Every Kubernetes object of the folder: (file name, object)."""
    found = []
    for path in sorted(KUBERNETES.glob("*.y*ml")):
        if path != KUSTOMIZATION:
            found += [(path.name, document) for document in yaml.safe_load_all(path.read_text()) if document]
    return found


def one(kind):
    (found,) = [document for _, document in manifests() if document["kind"] == kind]
    return found


def pod():
    return one("Deployment")["spec"]["template"]["spec"]


def container():
    (app,) = pod()["containers"]
    return app


def environment():
    """The container's environment: its env entries (values, or where they come from) and the ConfigMap's."""
    env = {entry["name"]: entry.get("value", entry.get("valueFrom")) for entry in container().get("env", [])}
    for source in container().get("envFrom", []):
        assert "configMapRef" in source, f"only the ConfigMap is read whole: {source}"
        configmap = one("ConfigMap")
        assert source["configMapRef"]["name"] == configmap["metadata"]["name"]
        env = configmap["data"] | env  # an env entry wins over envFrom
    return env


def kustomization():
    return yaml.safe_load(KUSTOMIZATION.read_text())


def image_user():
    uid, _, gid = dockerfile.only("USER").partition(":")
    return int(uid), int(gid or uid)


def workers():
    return int(environment().get("WEB_CONCURRENCY") or dockerfile.env()["WEB_CONCURRENCY"])


def mebibytes(quantity):
    number, unit = re.fullmatch(r"(\d+)(Mi|Gi|M|G)", quantity).groups()
    return int(number) * {"Mi": 1, "Gi": 1024, "M": 1e6 / 2**20, "G": 1e9 / 2**20}[unit]


def cores(quantity):
    return int(quantity[:-1]) / 1000 if quantity.endswith("m") else float(quantity)


def probes():
    return {kind: container()[f"{kind}Probe"] for kind in ("startup", "readiness", "liveness")}


# --- Kubernetes and kustomize -----------------------------------------------------------


def test_kustomization_lists_every_manifest_and_nothing_else():
    document = kustomization()
    assert document["apiVersion"] == "kustomize.config.k8s.io/v1beta1" and document["kind"] == "Kustomization"
    files = sorted(path.name for path in KUBERNETES.glob("*.y*ml") if path != KUSTOMIZATION)
    assert sorted(document["resources"]) == files


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_is_valid_for_kubernetes(version):
    """Strict: an unknown or misspelt field fails too (kubectl would drop it, or refuse the object)."""
    for name, document in manifests():
        try:
            kubernetes_validate.validate(document, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            pytest.fail(f"{name}: {error.message}")


def test_objects_find_each_other():
    """The Service, the budget and the autoscaler reach the Deployment's pods; the Ingress, the Service."""
    deployment, service = one("Deployment"), one("Service")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    assert one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() <= labels.items()
    target = one("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == ("apps/v1", "Deployment",
                                                                      deployment["metadata"]["name"])  # fmt: skip
    ports = {port["name"]: port for port in service["spec"]["ports"]}
    for rule in one("Ingress")["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] == service["metadata"]["name"]
            assert backend["port"].get("name") in ports or backend["port"].get("number") in [
                port["port"] for port in ports.values()
            ]


# --- The image ----------------------------------------------------------------------------


def test_the_container_listens_where_the_image_does():
    (port,) = container()["ports"]
    assert port["containerPort"] == int(dockerfile.only("EXPOSE"))
    (service_port,) = one("Service")["spec"]["ports"]
    assert service_port["targetPort"] in (port["name"], port["containerPort"])
    for kind, probe in probes().items():
        assert probe["httpGet"]["port"] in (port["name"], port["containerPort"]), kind


def test_the_pod_runs_as_the_images_user_confined():
    uid, gid = image_user()
    security = pod()["securityContext"]
    assert security["runAsNonRoot"] is True
    assert (security["runAsUser"], security["runAsGroup"], security["fsGroup"]) == (uid, gid, gid)
    assert security["seccompProfile"] == {"type": "RuntimeDefault"}
    confined = container()["securityContext"]
    assert confined["readOnlyRootFilesystem"] is True
    assert confined["allowPrivilegeEscalation"] is False
    assert confined["capabilities"] == {"drop": ["ALL"]}
    assert not confined.get("privileged") and "runAsUser" not in confined, "the pod's user holds"
    assert pod()["automountServiceAccountToken"] is False


def test_the_instance_folder_is_a_throwaway_volume_because_nothing_in_it_needs_keeping():
    instance = dockerfile.env()["FLASK_INSTANCE_PATH"]
    assert dockerfile.env()["NUMBA_CACHE_DIR"].startswith(instance + "/"), "the solver's cache must be writable"
    (mount,) = [m for m in container()["volumeMounts"] if m["mountPath"] == instance]
    (volume,) = [v for v in pod()["volumes"] if v["name"] == mount["name"]]
    assert "emptyDir" in volume and volume["emptyDir"].get("sizeLimit")
    env = environment()
    assert env["FLASK_SESSION_TYPE"] == "redis", "sessions in Redis, not in the pod"
    assert urlsplit(env["FLASK_SQLALCHEMY_DATABASE_URI"]).scheme.startswith("postgresql"), "records in PostgreSQL"
    assert "secretKeyRef" in env["FLASK_SECRET_KEY"], "the key in the Secret, not made in the pod"


def test_a_stopping_pod_finishes_its_requests():
    """preStop keeps it serving while it leaves the endpoints, then gunicorn's graceful stop, within the grace."""
    argv = dockerfile.cmd()
    graceful = float(dict(itertools.pairwise(argv))["--graceful-timeout"])
    command = container()["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    assert pod()["terminationGracePeriodSeconds"] > float(command[1]) + graceful


def test_the_image_is_named_as_compose_and_the_docs_build_it():
    """deployment.yaml names the image as compose.yaml does; kustomization.yaml gives it the registry and
    the project's version, which docs/deployment.md's multi-architecture build pushes."""
    compose_image = yaml.safe_load((PROJECT_ROOT / "compose.yaml").read_text())["services"]["app"]["image"]
    name = compose_image.rpartition(":")[0]
    assert container()["image"] == name
    (entry,) = [image for image in kustomization()["images"] if image["name"] == name]
    assert entry["newName"].rpartition("/")[2] == name
    version = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert entry["newTag"] == version
    builds = [shlex.split(line.strip().rstrip("\\")) for line in (PROJECT_ROOT / "docs" / "deployment.md").read_text()
              .replace("\\\n", " ").splitlines() if line.strip().startswith("docker buildx build")]  # fmt: skip
    assert builds, "docs/deployment.md shows the multi-architecture build"
    for argv in builds:
        assert set(argv[argv.index("--platform") + 1].split(",")) == {"linux/amd64", "linux/arm64"}
        assert argv[argv.index("-t") + 1] == f"{entry['newName']}:{entry['newTag']}" and "--push" in argv


# --- The app --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted({probe["httpGet"]["path"] for probe in probes().values()}))
def test_every_probe_asks_a_route_of_the_app(make_app, path):
    rules = {rule.rule for rule in make_app().url_map.iter_rules()}
    assert path in rules


@pytest.mark.parametrize("kind", ["startup", "readiness", "liveness"])
def test_each_probe_is_answered_as_the_kubelet_asks_it(make_app, kind):
    """With the ConfigMap's trusted hosts and proxies: the kubelet asks the pod's own address unless the probe
    names a host the app serves. (Embedded stores here, so only the path and the Host are on trial.)"""
    env = environment()
    app = make_app(TRUSTED_HOSTS=json.loads(env["FLASK_TRUSTED_HOSTS"]),
                   TRUSTED_PROXIES=int(env["FLASK_TRUSTED_PROXIES"]))
    request = probes()[kind]["httpGet"]
    headers = {header["name"]: header["value"] for header in request.get("httpHeaders", [])}
    headers.setdefault("Host", f"10.1.2.3:{dockerfile.only('EXPOSE')}")
    answer = app.test_client().get(request["path"], headers=headers)
    assert answer.status_code == 200, (kind, answer.status_code, answer.get_data(as_text=True)[:200])


def test_every_flask_variable_is_a_setting_of_the_app():
    for name in environment():
        if name.startswith("FLASK_"):
            assert name in AROUND_THE_APP or name.removeprefix("FLASK_") in config.SETTINGS, name


def test_secrets_are_referenced_never_written():
    assert not [name for name, document in manifests() if document["kind"] == "Secret"], "no Secret with values"
    env = environment()
    for name in ("FLASK_SECRET_KEY", "FLASK_REDIS_URL", "PGPASSWORD"):
        assert isinstance(env[name], dict) and "secretKeyRef" in env[name], name
    for name, value in one("ConfigMap")["data"].items():
        assert not re.search(r"SECRET|PASSWORD|REDIS_URL", name), name
        if "://" in value:
            assert urlsplit(value).password is None, f"{name} holds a password"


def test_the_ingress_serves_only_hosts_the_app_answers():
    trusted = json.loads(environment()["FLASK_TRUSTED_HOSTS"])
    spec = one("Ingress")["spec"]
    hosts = {rule["host"] for rule in spec["rules"]}
    assert hosts <= set(trusted), "the app answers 400 to a host outside FLASK_TRUSTED_HOSTS"
    assert hosts <= {host for tls in spec["tls"] for host in tls["hosts"]}, "every host over HTTPS"
    assert int(environment()["FLASK_TRUSTED_PROXIES"]) == 1, "one hop: the ingress controller"


def test_readiness_waits_longer_than_the_app_waits_for_postgresql(tmp_path):
    """A database that is down is /readyz's own 503, not a probe timing out."""
    env = environment()
    app = SimpleNamespace(config=config.DEFAULTS | {"SQLALCHEMY_DATABASE_URI": env["FLASK_SQLALCHEMY_DATABASE_URI"],
                                                     "SECRET_KEY": "k"}, instance_path=str(tmp_path))  # fmt: skip
    config.derive(app)
    connect = app.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"]["connect_timeout"]
    assert probes()["readiness"]["timeoutSeconds"] > connect


# --- Resources and scaling -------------------------------------------------------------------


def test_resources_fit_the_workers():
    """About 200 MB a worker (test_scale_out measures a replica): 250 MiB each and 100 for the rest, as
    compose; memory requested as limited; a core at most per worker."""
    resources = container()["resources"]
    memory = mebibytes(resources["limits"]["memory"])
    assert memory >= 250 * workers() + 100
    assert resources["requests"]["memory"] == resources["limits"]["memory"]
    assert cores(resources["limits"]["cpu"]) == workers()
    assert 0 < cores(resources["requests"]["cpu"]) <= cores(resources["limits"]["cpu"]), "the autoscaler needs it"


def test_the_autoscaler_owns_the_count_of_at_least_two_pods():
    hpa = one("HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu"
    assert 0 < metric["resource"]["target"]["averageUtilization"] <= 100
    assert "replicas" not in one("Deployment")["spec"], "kubectl apply would reset the autoscaler's count"
    budget = one("PodDisruptionBudget")["spec"]
    assert budget["maxUnavailable"] < hpa["spec"]["minReplicas"], "a drain leaves a pod serving"


def test_a_rollout_never_serves_with_fewer_pods():
    rolling = one("Deployment")["spec"]["strategy"]["rollingUpdate"]
    assert rolling["maxUnavailable"] == 0 and rolling["maxSurge"] >= 1

