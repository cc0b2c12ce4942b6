package dev.toolonce.executor.pause;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.security.TenantScope;
import java.util.NoSuchElementException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.security.access.AccessDeniedException;

/** Who may lift which pause (docs/security.md §5); the admin role itself is checked by {@code @PreAuthorize}. */
class ToolPauseControllerTest {
    private static final TenantScope EVERY = new TenantScope(true, Set.of());
    private static final TenantScope ACME = new TenantScope(false, Set.of("acme"));

    @Test
    void anAdminOfEveryTenantResumesAnyPause() {
        assertThatCode(() -> ToolPauseController.mayResume(EVERY, "payments", "*")).doesNotThrowAnyException();
        assertThatCode(() -> ToolPauseController.mayResume(EVERY, "payments", "globex")).doesNotThrowAnyException();
    }

    @Test
    void anAdminOfATenantResumesThatTenantsPauseOnly() {
        assertThatCode(() -> ToolPauseController.mayResume(ACME, "payments", "acme")).doesNotThrowAnyException();
        assertThatThrownBy(() -> ToolPauseController.mayResume(ACME, "payments", "globex"))
                .as("another tenant's pause: as if it did not exist").isInstanceOf(NoSuchElementException.class)
                .hasMessage("no pause of tool 'payments' for tenant 'globex'");
        assertThatThrownBy(() -> ToolPauseController.mayResume(ACME, "payments", "*"))
                .as("a pause of every tenant holds acme's calls too: acme may know of it, not lift it")
                .isInstanceOf(AccessDeniedException.class).hasMessageContaining("needs an admin of every tenant");
        assertThatThrownBy(() -> ToolPauseController.mayResume(new TenantScope(false, Set.of()), "payments", "acme"))
                .isInstanceOf(NoSuchElementException.class);
    }
}
