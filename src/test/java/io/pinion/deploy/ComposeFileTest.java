package io.pinion.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import io.pinion.topology.HostPort;
import io.pinion.topology.Topology;
import io.pinion.topology.TopologyLoader;

/**
 * docker/compose.yml read as text, for what {@link ContainerDeploymentIT} (docker/verify) does not show: the public
 * images it runs by default (the run overrides them with bin/images' names), that its published ports can never meet
 * the local stack's (whatever ports the run happened to find free), the dependency conditions docker compose honours
 * (podman-compose, which the run uses, ignores them), memory limits on every server, that no credential is written in
 * the file, that the instances are alike and all behind the balancer, and that the topology they mount is the local
 * stack's layout with its replicas and Sentinels.
 */
class ComposeFileTest {

    private static final Path DOCKER = Path.of("docker");
    private static final Map<String, Object> COMPOSE = load();
    private static final Pattern STACK_PORT =
            Pattern.compile("^[A-Z0-9_]+_PORT=\\$\\(\\( (\\d+) \\+ PORT_OFFSET \\)\\)$");
    private static final Pattern IMAGE = Pattern.compile("^\\$\\{(PINION_(?:[A-Z]+_)*IMAGE):-([^}]+)}$");
    private static final Pattern PUBLISHED =
            Pattern.compile("^127\\.0\\.0\\.1:\\$\\{(PINION_[A-Z0-9_]+):-(\\d+)}:(\\d+)$");
    private static final List<String> INSTANCES = List.of("pinion-1", "pinion-2", "pinion-3");
    private static final Set<String> SERVERS = Set.of(
            "mysql-1",
            "mysql-2",
            "mysql-1-replica",
            "mysql-2-replica",
            "redis-1",
            "redis-2",
            "sentinel-1",
            "sentinel-2",
            "sentinel-3",
            "hbase-primary",
            "hbase-standby",
            "zk-1",
            "zk-2",
            "zk-3");

    @Test
    void imagesAreOverridableFromTheEnvironmentAndDefaultToThePublicOnesAndBinImagesNames() throws IOException {
        String images = Files.readString(Path.of("bin/images"));
        services().forEach((name, service) -> {
            Matcher image = IMAGE.matcher(String.valueOf(service.get("image")));
            assertTrue(image.matches(), name + ": image is ${PINION_..._IMAGE:-default}, not " + service.get("image"));
            String fallback = image.group(2);
            // built by bin/images (zk-1..3 run the HBase image's ZooKeeper jars), or pulled from Docker Hub
            if (service.containsKey("build") || images.contains("=" + fallback + "\n")) {
                assertTrue(images.contains("=" + fallback + "\n"), name + ": bin/images builds " + fallback);
            } else {
                assertTrue(fallback.startsWith("docker.io/library/"), name + " pulls an official image: " + fallback);
            }
        });
        assertEquals(
                "docker.io/library/mariadb:10.11",
                imageDefault("mysql-1"),
                "MariaDB, as the local stack and the tests");
        assertEquals(imageDefault("mysql-1"), imageDefault("mysql-2"));
        assertTrue(imageDefault("redis-1").startsWith("docker.io/library/redis:7"));
    }

    @Test
    void onlyTheBalancerAndTheInstancesManagementArePublishedOnLoopbackOnPortsTheLocalStacksNeverUse()
            throws IOException {
        Set<Integer> stack = new HashSet<>(List.of(8080, 8081));
        for (String line : Files.readAllLines(Path.of("bin/stack"))) {
            Matcher port = STACK_PORT.matcher(line.strip());
            if (port.matches()) {
                stack.add(Integer.parseInt(port.group(1)));
            }
        }
        assertTrue(stack.size() > 10, "bin/stack's ports: " + stack);
        Map<String, List<String>> inside = new TreeMap<>();
        Set<String> variables = new HashSet<>();
        services().forEach((name, service) -> {
            if (!name.equals("haproxy") && !INSTANCES.contains(name)) {
                assertFalse(service.containsKey("ports"), name + " is reached inside the project's network only");
                return;
            }
            for (String entry : list(service.get("ports"))) {
                Matcher published = PUBLISHED.matcher(entry);
                assertTrue(published.matches(), "127.0.0.1:${PINION_..._PORT:-default}:<port>, not " + entry);
                assertTrue(variables.add(published.group(1)), "one variable per published port: " + published.group(1));
                inside.computeIfAbsent(name, key -> new java.util.ArrayList<>()).add(published.group(3));
                int port = Integer.parseInt(published.group(2));
                // a second stack runs beside the first with every port moved by PINION_STACK_PORT_OFFSET (1000 in
                // practice)
                for (int offset : List.of(0, 1000)) {
                    assertFalse(stack.contains(port - offset), "host port " + port + " is a local stack's port");
                }
            }
        });
        // clients reach the balancer (and its statistics page); each instance only its management interface (metrics,
        // the backends health group), for the operator's scraper
        assertEquals(List.of("8080", "8404"), inside.get("haproxy"));
        INSTANCES.forEach(instance -> assertEquals(List.of("9000"), inside.get(instance), instance));
    }

    @Test
    void theInstancesAreAlikeAndAllBehindTheBalancer() throws IOException {
        Map<String, Object> first = new TreeMap<>(services().get(INSTANCES.get(0)));
        first.remove("ports");
        for (String instance : INSTANCES) {
            Map<String, Object> service = new TreeMap<>(services().get(instance));
            service.remove("ports");
            assertEquals(first, service, instance + " is pinion-1 but for its published management port");
        }
        String balancer = Files.readString(DOCKER.resolve("haproxy/haproxy.cfg"));
        Matcher servers = Pattern.compile("(?m)^\\s*server (\\S+) (\\S+):8080 check$").matcher(balancer);
        List<String> behind = new java.util.ArrayList<>();
        while (servers.find()) {
            assertEquals(servers.group(1), servers.group(2), "the balancer reaches an instance by its service name");
            behind.add(servers.group(1));
        }
        assertEquals(INSTANCES, behind, "docker/haproxy/haproxy.cfg balances over every instance");
        assertTrue(balancer.contains("option httpchk GET /q/health/ready"), "instances in rotation only while ready");
        String mount = list(services().get("haproxy").get("volumes")).get(0);
        assertEquals("./haproxy/haproxy.cfg", mount.split(":")[0]);
        assertEquals(String.valueOf(list(services().get("haproxy").get("command")).get(4)), mount.split(":")[1],
                "the balancer reads the mounted configuration");
    }

    @Test
    void theServiceWaitsForEveryServerToBeHealthy() {
        Map<String, Map<String, Object>> services = services();
        services.forEach((name, service) -> map(service.get("depends_on")).forEach((dependency, how) -> {
            assertTrue(services.containsKey(dependency), name + " depends on unknown service " + dependency);
            assertEquals("service_healthy", map(how).get("condition"), name + " waits for " + dependency);
        }));
        for (String instance : INSTANCES) {
            assertEquals(SERVERS, map(services.get(instance).get("depends_on")).keySet(), instance);
        }
        assertEquals(Set.copyOf(INSTANCES), map(services.get("haproxy").get("depends_on")).keySet());
        services.forEach((name, service) -> {
            if (SERVERS.contains(name) || name.endsWith("-replica")) {
                assertTrue(service.containsKey("healthcheck"), name + " has a health check");
            }
        });
    }

    @Test
    void everyContainerHasAMemoryLimitAndHBasesHeapFitsInIt() {
        services().forEach((name, service) ->
                assertTrue(String.valueOf(service.get("mem_limit")).matches("\\$\\{PINION_[A-Z_]+:-\\d+[mg]}"),
                        name + ": mem_limit ${PINION_...:-size}, not " + service.get("mem_limit")));
        for (String hbase : List.of("hbase-primary", "hbase-standby")) {
            Map<String, Object> service = services().get(hbase);
            long heap = bytes(String.valueOf(map(service.get("environment")).get("HBASE_HEAP")));
            long limit = bytes(String.valueOf(service.get("mem_limit")).replaceAll(".*:-(.*)}", "$1"));
            assertTrue(heap <= limit * 3 / 4, hbase + ": a heap of " + heap + " leaves room in " + limit);
        }
    }

    @Test
    void secretsAreDeclaredFilesAndNoCredentialIsWrittenInTheFile() throws IOException {
        Map<String, Object> secrets = map(COMPOSE.get("secrets"));
        services().forEach((name, service) -> {
            for (String secret : list(service.get("secrets"))) {
                assertTrue(secrets.containsKey(secret), name + " uses undeclared secret " + secret);
            }
            map(service.get("environment")).forEach((key, value) -> {
                boolean credential =
                        key.matches(".*(PASSWORD|SECRET|_AUTH)$") && !key.equals("MARIADB_RANDOM_ROOT_PASSWORD");
                if (credential) {
                    assertTrue(
                            String.valueOf(value).startsWith("${"), name + ": " + key + " comes from the environment");
                }
            });
        });
        secrets.forEach((name, secret) -> assertTrue(String.valueOf(map(secret).get("file")).startsWith("./secrets/"),
                "secret " + name + " is a file under docker/secrets/"));
        assertTrue(Files.readAllLines(Path.of(".gitignore")).containsAll(List.of("docker/secrets/", "docker/.env")),
                "keys and the .env file stay out of git");
        Map<String, Object> environment = map(services().get("pinion-1").get("environment"));
        for (String key : List.of("PINION_JWT_PRIVATE_KEY", "PINION_JWT_PUBLIC_KEY")) {
            String secret = String.valueOf(environment.get(key)).replace("file:/run/secrets/", "");
            assertTrue(list(services().get("pinion-1").get("secrets")).contains(secret), key + " is a mounted secret");
        }
    }

    @Test
    void theServiceReadsATopologyOfTheComposeServicesLaidOutLikeTheLocalStack() {
        Map<String, Object> pinion = services().get("pinion-1");
        String target = String.valueOf(map(pinion.get("environment")).get("PINION_TOPOLOGY_FILE"));
        String mount = list(pinion.get("volumes")).stream()
                .filter(volume -> volume.split(":")[1].equals(target))
                .findFirst().orElseThrow(() -> new AssertionError("nothing is mounted at " + target));
        Topology docker = TopologyLoader.fromFile(DOCKER.resolve(mount.split(":")[0]));
        Topology local = TopologyLoader.fromResource("topology/local.json");

        docker.mysql().hosts().forEach(host -> {
            assertListens(host.name(), host.masterEndpoint(), 3306);
            // the replica the service promotes: the compose service that replicates from the host's master
            HostPort replica = host.replicaEndpoint();
            assertTrue(replica != null, host.name() + " has a replica");
            assertListens(host.name() + "-replica", replica, 3306);
            assertEquals(
                    host.name(),
                    map(services().get(replica.host()).get("environment")).get("PINION_REPLICATE_FROM"));
        });
        docker.redis().instances().forEach(instance -> {
            assertListens(instance.name(), HostPort.parse(instance.endpoint()), 6379);
            // Sentinel knows each master by its instance's name, and the instance's replica replicates from it
            assertEquals(instance.name(), map(services().get(instance.name() + "-replica").get("environment"))
                    .get("REDIS_REPLICA_OF"));
            for (String sentinel : docker.redis().sentinels()) {
                assertTrue(String.valueOf(map(services().get(sentinel.split(":")[0]).get("environment"))
                        .get("SENTINEL_MASTERS")).contains(instance.name()), sentinel + " watches " + instance.name());
            }
        });
        assertEquals(List.of("sentinel-1:26379", "sentinel-2:26379", "sentinel-3:26379"), docker.redis().sentinels());
        docker.hbase().clusters().forEach(cluster -> {
            Map<String, Object> environment = map(services().get(cluster.name()).get("environment"));
            assertListens(cluster.name(), HostPort.parse(cluster.bootstrap()),
                    Integer.parseInt(String.valueOf(environment.get("HBASE_MASTER_PORT"))));
            String[] key = cluster.zookeeper().split(":");
            assertListens(cluster.name(), new HostPort(key[0], Integer.parseInt(key[1])),
                    Integer.parseInt(String.valueOf(environment.get("HBASE_ZK_PORT"))));
            assertEquals("/" + cluster.name(), key[2], "the znode parent start-hbase.sh gives " + cluster.name());
        });

        assertEquals(local.mysql().shardCount(), docker.mysql().shardCount());
        assertEquals(local.mysql().openShards(), docker.mysql().openShards());
        assertEquals(local.mysql().hosts().stream().map(host -> host.name() + host.shards()).toList(),
                docker.mysql().hosts().stream().map(host -> host.name() + host.shards()).toList());
        assertEquals(local.redis().instances().stream().map(i -> i.name() + i.virtualShards()).toList(),
                docker.redis().instances().stream().map(i -> i.name() + i.virtualShards()).toList());
        assertEquals(local.hbase().roles(), docker.hbase().roles());
    }

    private static void assertListens(String service, HostPort endpoint, int port) {
        assertTrue(services().containsKey(service), "the topology's " + service + " is a compose service");
        assertEquals(new HostPort(service, port), endpoint, "the topology reaches " + service + " by its service name");
    }

    private static String imageDefault(String service) {
        Matcher image = IMAGE.matcher(String.valueOf(services().get(service).get("image")));
        assertTrue(image.matches());
        return image.group(2);
    }

    private static long bytes(String size) {
        long number = Long.parseLong(size.substring(0, size.length() - 1));
        return number * (size.endsWith("g") ? 1L << 30 : 1L << 20);
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
