package io.pinion.ratelimit.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.pinion.failure.RateLimited;
import io.pinion.ratelimit.RateLimits;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;

/**
 * Applies the per-user write limit to every authenticated write of the public API (pins, boards, follows, likes,
 * profiles). Queue and job endpoints (workers, with queues' own rate limits), admin endpoints, sign-up and login
 * (limited per address and username where they are handled) are left out; so are requests without a valid token,
 * which their resources answer with 401.
 */
public class WriteRateFilter {

    private final RateLimits limits;
    private final CurrentIdentityAssociation identities;

    WriteRateFilter(RateLimits limits, CurrentIdentityAssociation identities) {
        this.limits = limits;
        this.identities = identities;
    }

    @ServerRequestFilter
    public Uni<Response> limit(ContainerRequestContext request) {
        String method = request.getMethod();
        if (method.equals("GET")
                || method.equals("HEAD")
                || method.equals("OPTIONS")
                || !limited(request.getUriInfo().getPath())) {
            return Uni.createFrom().nullItem();
        }
        return identities.getDeferredIdentity()
                .map(identity -> {
                    if (!identity.isAnonymous() && identity.getPrincipal() instanceof JsonWebToken token) {
                        limits.write(token.getSubject());
                    }
                    return (Response) null;
                })
                .onFailure(failure -> !(failure instanceof RateLimited)).recoverWithNull();
    }

    static boolean limited(String path) {
        return path.startsWith("/v1/") && !path.startsWith("/v1/queues") && !path.startsWith("/v1/jobs")
                && !path.startsWith("/v1/admin") && !path.equals("/v1/sessions") && !path.equals("/v1/users");
    }
}
