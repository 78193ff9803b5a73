package io.pinion.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import io.pinion.topology.HostPort;
import io.pinion.topology.Topology;
import io.pinion.topology.TopologyLoader;

/**
 * docker/compose.yml checked without Docker: every service has an image, a health check and its ports, names
 * resolve (volumes, dependencies, secrets, mounted files), and the topology mounted into the service is valid and
 * names the compose services, laid out like the local stack's.
 */
class ComposeFileTest {

    private static final Path DOCKER = Path.of("docker");
    private static final Map<String, Object> COMPOSE = load();
    private static final Pattern STACK_PORT = Pattern.compile("^([A-Z0-9_]+)_PORT=(\\d+)$");

    @Test
    void everyServiceHasAnImageOrABuildWhoseDockerfileEndsInAnImage() {
        services().forEach((name, service) -> {
            Map<String, Object> build = map(service.get("build"));
            if (build.isEmpty()) {
                assertTrue(service.get("image") instanceof String image && !image.isBlank(), name + " names an image");
                return;
            }
            Path dockerfile = DOCKER.resolve((String) build.get("context")).resolve((String) build.get("dockerfile"));
            assertTrue(Files.isRegularFile(dockerfile), name + ": " + dockerfile + " exists");
            String base = DockerfileText.read(dockerfile).finalBaseImage();
            assertFalse(base.isBlank() || base.equals("scratch"), name + ": final stage of " + dockerfile + " is " + base);
        });
    }

    @Test
    void everyServiceHasAHealthCheck() {
        services().forEach((name, service) -> {
            Map<String, Object> check = map(service.get("healthcheck"));
            assertFalse(Boolean.TRUE.equals(check.get("disable")), name);
            List<String> test = list(check.get("test"));
            assertTrue(test.size() >= 2 && List.of("CMD", "CMD-SHELL").contains(test.get(0)), name + " health check: " + test);
            assertNotNull(check.get("interval"), name + " health check interval");
        });
    }

    @Test
    void everyServicePublishesTheLocalStacksPortsOnLoopbackOnly() throws IOException {
        Map<String, Set<Integer>> expected = stackPorts();
        // the compose file runs no MySQL replicas (docker/README.md): only the local stack's are left out
        expected.keySet().removeIf(server -> server.endsWith("-replica"));
        expected.put("pinion", Set.of(8080));
        Map<String, Set<Integer>> published = new TreeMap<>();
        Set<Integer> taken = new HashSet<>();
        services().forEach((name, service) -> {
            List<String> ports = list(service.get("ports"));
            assertFalse(ports.isEmpty(), name + " publishes its ports");
            for (String port : ports) {
                String[] parts = port.split(":");
                assertEquals(3, parts.length, name + ": " + port + " is ip:host:container");
                assertEquals("127.0.0.1", parts[0], name + ": " + port + " is published on loopback only");
                int host = Integer.parseInt(parts[1]);
                assertTrue(taken.add(host), "host port " + host + " is published twice");
                published.computeIfAbsent(name, n -> new TreeSet<>()).add(host);
            }
        });
        assertEquals(new TreeMap<>(expected), published, "host ports as in bin/stack (and docker/README.md)");
    }

    @Test
    void namedVolumesAreDeclaredAndUsedAndMountedFilesExist() {
        Set<String> declared = map(COMPOSE.get("volumes")).keySet();
        Set<String> used = new HashSet<>();
        services().forEach((name, service) -> {
            for (String volume : list(service.get("volumes"))) {
                String source = volume.split(":")[0];
                if (source.startsWith(".") || source.startsWith("/")) {
                    assertTrue(Files.exists(DOCKER.resolve(source)), name + " mounts " + source + ", which does not exist");
                } else {
                    assertTrue(declared.contains(source), name + " uses volume " + source + ", which is not declared");
                    used.add(source);
                }
            }
        });
        assertEquals(declared, used, "every declared volume is used");
    }

    @Test
    void dependenciesNameServicesAndWaitForThemToBeHealthy() {
        Map<String, Map<String, Object>> services = services();
        services.forEach((name, service) -> map(service.get("depends_on")).forEach((dependency, how) -> {
            assertTrue(services.containsKey(dependency), name + " depends on unknown service " + dependency);
            assertEquals("service_healthy", map(how).get("condition"), name + " waits for " + dependency);
        }));
        assertEquals(Set.of("mysql-1", "mysql-2", "redis-1", "redis-2", "hbase-primary", "hbase-standby"),
                map(services.get("pinion").get("depends_on")).keySet());
    }

    @Test
    void secretsAreDeclaredFilesAndNoCredentialIsWrittenInTheFile() throws IOException {
        Map<String, Object> secrets = map(COMPOSE.get("secrets"));
        services().forEach((name, service) -> {
            for (String secret : list(service.get("secrets"))) {
                assertTrue(secrets.containsKey(secret), name + " uses undeclared secret " + secret);
            }
            map(service.get("environment")).forEach((key, value) -> {
                boolean credential = key.matches(".*(PASSWORD|SECRET|_AUTH)$") && !key.equals("MYSQL_RANDOM_ROOT_PASSWORD");
                if (credential) {
                    assertTrue(String.valueOf(value).startsWith("${"), name + ": " + key + " comes from the environment");
                }
            });
        });
        secrets.forEach((name, secret) -> assertTrue(String.valueOf(map(secret).get("file")).startsWith("./secrets/"),
                "secret " + name + " is a file under docker/secrets/"));
        assertTrue(Files.readAllLines(Path.of(".gitignore")).containsAll(List.of("docker/secrets/", "docker/.env")),
                "keys and the .env file stay out of git");
        Map<String, Object> environment = map(services().get("pinion").get("environment"));
        for (String key : List.of("PINION_JWT_PRIVATE_KEY", "PINION_JWT_PUBLIC_KEY")) {
            String secret = String.valueOf(environment.get(key)).replace("file:/run/secrets/", "");
            assertTrue(list(services().get("pinion").get("secrets")).contains(secret), key + " is a mounted secret");
        }
    }

    @Test
    void theServiceReadsAValidTopologyOfTheComposeServicesLaidOutLikeTheLocalStack() {
        Map<String, Object> pinion = services().get("pinion");
        String target = String.valueOf(map(pinion.get("environment")).get("PINION_TOPOLOGY_FILE"));
        String mount = list(pinion.get("volumes")).stream()
                .filter(volume -> volume.split(":")[1].equals(target))
                .findFirst().orElseThrow(() -> new AssertionError("nothing is mounted at " + target));
        Topology docker = TopologyLoader.fromFile(DOCKER.resolve(mount.split(":")[0]));
        Topology local = TopologyLoader.fromResource("topology/local.json");

        docker.mysql().hosts().forEach(host -> assertServiceListens(host.name(), host.masterEndpoint()));
        docker.redis().instances().forEach(instance -> assertServiceListens(instance.name(), HostPort.parse(instance.endpoint())));
        docker.hbase().clusters().forEach(cluster -> {
            assertServiceListens(cluster.name(), HostPort.parse(cluster.bootstrap()));
            String[] key = cluster.zookeeper().split(":");
            assertServiceListens(cluster.name(), new HostPort(key[0], Integer.parseInt(key[1])));
        });

        assertEquals(local.mysql().shardCount(), docker.mysql().shardCount());
        assertEquals(local.mysql().openShards(), docker.mysql().openShards());
        assertEquals(local.mysql().hosts().stream().map(host -> host.name() + host.shards()).toList(),
                docker.mysql().hosts().stream().map(host -> host.name() + host.shards()).toList());
        assertEquals(local.redis().instances().stream().map(i -> i.name() + i.virtualShards()).toList(),
                docker.redis().instances().stream().map(i -> i.name() + i.virtualShards()).toList());
        assertEquals(local.hbase().roles(), docker.hbase().roles());
    }

    /** The endpoint is the compose service of that name, on a port the service publishes from its container. */
    private static void assertServiceListens(String service, HostPort endpoint) {
        assertEquals(service, endpoint.host(), "the topology's " + service + " is the compose service of that name");
        Set<Integer> containerPorts = new HashSet<>();
        list(services().get(service).get("ports")).forEach(port -> containerPorts.add(Integer.parseInt(port.split(":")[2])));
        assertTrue(containerPorts.contains(endpoint.port()), service + " listens on " + endpoint.port());
    }

    /** Host ports by server, from the variables at the top of bin/stack (MYSQL_1_PORT, HBASE_PRIMARY_ZK_PORT, ...). */
    private static Map<String, Set<Integer>> stackPorts() throws IOException {
        Map<String, Set<Integer>> ports = new HashMap<>();
        for (String line : Files.readAllLines(Path.of("bin/stack"))) {
            Matcher matcher = STACK_PORT.matcher(line);
            if (matcher.matches()) {
                String server = matcher.group(1).toLowerCase().replace('_', '-').replaceFirst("-(zk|master|rs)$", "");
                ports.computeIfAbsent(server, s -> new TreeSet<>()).add(Integer.parseInt(matcher.group(2)));
            }
        }
        return ports;
    }

    private static Map<String, Map<String, Object>> services() {
        Map<String, Map<String, Object>> services = new TreeMap<>();
        map(COMPOSE.get("services")).forEach((name, service) -> services.put(name, map(service)));
        assertFalse(services.isEmpty(), "compose.yml has services");
        return services;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<String> list(Object value) {
        return value == null ? List.of() : (List<String>) value;
    }

    private static Map<String, Object> load() {
        try {
            return new Yaml().load(Files.readString(DOCKER.resolve("compose.yml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
