package io.pinion.ops;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import io.pinion.mysql.MysqlConfig;
import io.pinion.paging.CursorConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigUtils;

/**
 * The {@code prod} profile refuses to start with the defaults that only suit a laptop: the cursor and lease-token
 * secret ({@code PINION_CURSOR_SECRET}) and the MySQL password ({@code PINION_MYSQL_PASSWORD}) must be set. A
 * deployment sets both ({@code docker/init-secrets.sh} makes random ones); {@code bin/run}, {@code bin/seed} and
 * {@code bin/admin} pass the local stack's password and a secret generated once under {@code .stack/}.
 */
@ApplicationScoped
class ProdChecks {

    private final CursorConfig cursors;
    private final MysqlConfig mysql;

    ProdChecks(CursorConfig cursors, MysqlConfig mysql) {
        this.cursors = cursors;
        this.mysql = mysql;
    }

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent start) {
        if (LaunchMode.current() != LaunchMode.NORMAL || !ConfigUtils.getProfiles().contains("prod")) {
            return;
        }
        List<String> problems = problems(cursors.secret().orElse(null), mysql.password().orElse(null));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the prod profile refuses to start: " + String.join("; ", problems));
        }
    }

    /** What is wrong with the settings (null: not set, so the local default would apply). */
    static List<String> problems(String cursorSecret, String mysqlPassword) {
        List<String> problems = new ArrayList<>();
        if (cursorSecret == null || cursorSecret.equals(CursorConfig.LOCAL_SECRET) || cursorSecret.length() < 16) {
            problems.add("set pinion.cursor.secret (PINION_CURSOR_SECRET) to a secret of at least 16 characters");
        }
        if (mysqlPassword == null) {
            problems.add("set pinion.mysql.password (PINION_MYSQL_PASSWORD)");
        }
        return problems;
    }
}
