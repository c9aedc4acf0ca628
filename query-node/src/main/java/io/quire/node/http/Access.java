package io.quire.node.http;

import io.quire.node.security.Role;
import io.vertx.ext.web.RoutingContext;

/** The role a route needs; null means the route is open. Declared with each route in {@link HttpApi}. */
@FunctionalInterface
interface Access {

    Role required(RoutingContext ctx);

    Access OPEN = ctx -> null;
    Access READ = ctx -> Role.READER;
    Access WRITE = ctx -> Role.WRITER;
    Access ADMIN = ctx -> Role.ADMIN;
    /** Soft deletes are a writer's; {@code permanent=true} is an admin's. */
    Access DELETE = ctx -> Params.flag(ctx, "permanent") ? Role.ADMIN : Role.WRITER;
}
