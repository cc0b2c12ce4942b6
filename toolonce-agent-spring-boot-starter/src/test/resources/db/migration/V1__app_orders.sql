-- An application's own migration at the place Spring Boot's Flyway looks by default (StarterBesideAppFlywayIT).
CREATE TABLE app_orders (id bigserial PRIMARY KEY, note text);
