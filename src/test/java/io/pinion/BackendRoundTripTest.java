package io.pinion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import io.pinion.hbase.HBaseCalls;
import io.pinion.hbase.HBaseCluster;
import io.pinion.hbase.HBaseClusters;
import io.pinion.mysql.MysqlPools;
import io.pinion.redis.RedisClients;
import io.pinion.redis.RedisInstanceClient;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The service really talks to every backend of the topology: a value written through each client reads back
 * from the same server and from no other.
 */
@QuarkusTest
@StackTest
class BackendRoundTripTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final TableName SCRATCH = TableName.valueOf("pinion_scratch");
    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("v");

    @Inject
    MysqlPools mysql;
    @Inject
    RedisClients redis;
    @Inject
    HBaseClusters hbase;

    @Test
    void eachMysqlHostPoolWritesAndReadsItsOwnServer() {
        Map<String, Pool> pools = mysql.all();
        assertEquals(List.of("mysql-1", "mysql-2"), List.copyOf(pools.keySet()));
        Set<Integer> serverIds = new HashSet<>();
        for (Map.Entry<String, Pool> entry : pools.entrySet()) {
            Pool pool = entry.getValue();
            String key = entry.getKey() + "-" + UUID.randomUUID();
            String value = "written through " + entry.getKey();
            pool.query("CREATE DATABASE IF NOT EXISTS pinion_scratch").execute()
                    .flatMap(r -> pool.query("CREATE TABLE IF NOT EXISTS pinion_scratch.kv "
                            + "(k VARCHAR(100) PRIMARY KEY, v VARCHAR(255) NOT NULL)").execute())
                    .flatMap(r -> pool.preparedQuery("INSERT INTO pinion_scratch.kv (k, v) VALUES (?, ?)")
                            .execute(Tuple.of(key, value)))
                    .await().atMost(WAIT);
            String read = pool.preparedQuery("SELECT v FROM pinion_scratch.kv WHERE k = ?")
                    .execute(Tuple.of(key))
                    .map(rows -> rows.iterator().next().getString("v"))
                    .await().atMost(WAIT);
            assertEquals(value, read);
            int port = pool.query("SELECT @@port").execute()
                    .map(rows -> rows.iterator().next().getInteger(0))
                    .await().atMost(WAIT);
            assertFalse(port == 3306, "must not use the machine's own MariaDB");
            serverIds.add(port);
        }
        assertEquals(2, serverIds.size(), "the two host pools reach two different servers");
    }

    @Test
    void eachRedisClientWritesAndReadsItsOwnInstance() {
        List<RedisInstanceClient> clients = redis.all();
        assertEquals(List.of("redis-1", "redis-2"), clients.stream().map(RedisInstanceClient::name).toList());
        for (RedisInstanceClient client : clients) {
            String key = "pinion:test:" + client.name() + ":" + UUID.randomUUID();
            send(client, Request.cmd(Command.SETEX).arg(key).arg(60).arg("written through " + client.name()));
            assertEquals(
                    "written through " + client.name(),
                    send(client, Request.cmd(Command.GET).arg(key)).toString());
            for (RedisInstanceClient other : clients) {
                if (other != client) {
                    assertNull(
                            send(other, Request.cmd(Command.GET).arg(key)), "the key lives only on " + client.name());
                }
            }
            String info = send(client, Request.cmd(Command.INFO).arg("server")).toString();
            String port = client.endpoint().substring(client.endpoint().lastIndexOf(':') + 1);
            assertTrue(info.contains("tcp_port:" + port), "the client reaches the server on " + port);
            assertNotEquals("6379", port, "must not use the machine's own Redis");
        }
    }

    private static Response send(RedisInstanceClient client, Request request) {
        return client.redis().send(request).await().atMost(WAIT);
    }

    @Test
    void eachHBaseClusterWritesAndReadsThroughTheAsyncApi() {
        List<HBaseCluster> clusters = hbase.all();
        assertEquals(List.of("hbase-primary", "hbase-standby"), clusters.stream().map(HBaseCluster::name).toList());
        for (HBaseCluster cluster : clusters) {
            byte[] row = Bytes.toBytes(cluster.name() + "-" + UUID.randomUUID());
            byte[] value = Bytes.toBytes("written through " + cluster.name());
            String read = createScratchTable(cluster)
                    .flatMap(ignored -> cluster.connection())
                    .flatMap(connection -> HBaseCalls.uni(() -> connection.getTable(SCRATCH)
                            .put(new Put(row).addColumn(FAMILY, QUALIFIER, value)))
                            .flatMap(ignored -> HBaseCalls.uni(() -> connection.getTable(SCRATCH).get(new Get(row)))))
                    .map(result -> Bytes.toString(result.getValue(FAMILY, QUALIFIER)))
                    .await().atMost(WAIT);
            assertEquals("written through " + cluster.name(), read);
        }
    }

    private static Uni<Void> createScratchTable(HBaseCluster cluster) {
        return cluster.connection()
                .flatMap(connection -> HBaseCalls.uni(
                                () -> connection.getAdmin().tableExists(SCRATCH))
                        .flatMap(exists -> exists
                                ? Uni.createFrom().voidItem()
                                : HBaseCalls.uni(() -> connection
                                                .getAdmin()
                                                .createTable(TableDescriptorBuilder.newBuilder(SCRATCH)
                                                        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                                                        .build()))
                                        .onFailure(failure -> failure.getClass()
                                                .getSimpleName()
                                                .equals("TableExistsException"))
                                        .recoverWithNull()));
    }
}
