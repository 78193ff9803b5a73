package io.pinion.nativeimage;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Classes the HBase 2.6 async client creates by name (from {@code Configuration} class settings or a
 * {@code ServiceLoader} file), so a native executable must keep them for reflection. Found in the client's byte
 * code along the path {@code ConnectionFactory.createAsyncConnection}: the user provider, the connection registry
 * the service configures ({@code RpcConnectionRegistry}: bootstrap through the masters, no ZooKeeper), the
 * connection, the Netty RPC client and its cell codec, the SASL providers of {@code SaslClientAuthenticationProviders}
 * (simple authentication is picked from them), and the JAAS login module and principal that Hadoop's
 * {@code UserGroupInformation} loads by name for the current OS user. Resources and class-initialization
 * settings for the same client are the {@code quarkus.native.*} keys in application.properties.
 */
@RegisterForReflection(classNames = {
        "org.apache.hadoop.hbase.security.UserProvider",
        "org.apache.hadoop.hbase.client.RpcConnectionRegistry",
        "org.apache.hadoop.hbase.client.AsyncConnectionImpl",
        "org.apache.hadoop.hbase.ipc.NettyRpcClient",
        "org.apache.hadoop.hbase.codec.KeyValueCodec",
        "org.apache.hadoop.hbase.security.provider.BuiltInProviderSelector",
        "org.apache.hadoop.hbase.security.provider.SimpleSaslClientAuthenticationProvider",
        "org.apache.hadoop.hbase.security.provider.DigestSaslClientAuthenticationProvider",
        "org.apache.hadoop.hbase.security.provider.GssSaslClientAuthenticationProvider",
        "org.apache.hadoop.security.UserGroupInformation$HadoopLoginModule",
        "com.sun.security.auth.module.UnixLoginModule",
        "com.sun.security.auth.UnixPrincipal" })
final class HBaseClientTypes {

    private HBaseClientTypes() {
    }
}
