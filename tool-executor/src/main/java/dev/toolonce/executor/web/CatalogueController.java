package dev.toolonce.executor.web;

import dev.toolonce.core.adapter.Capability;
import dev.toolonce.executor.catalogue.ToolCatalogue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /executor/catalogue} (docs/adapters.md §8): the tools, their operations, capabilities, argument schemas
 * and guarantees, for any authenticated viewer — agents and gateways read it to offer the tools to their models. It
 * names no tenant and no call.
 */
@RestController
public class CatalogueController {
    private final ToolCatalogue catalogue;

    public CatalogueController(ToolCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    @GetMapping("/executor/catalogue")
    @PreAuthorize("hasRole('VIEWER')")
    public Map<String, Object> catalogue() {
        List<Object> tools = new ArrayList<>();
        for (ToolCatalogue.Tool t : catalogue.tools()) {
            List<Object> ops = new ArrayList<>();
            for (ToolCatalogue.Operation o : t.operations()) {
                Map<String, Object> op = new LinkedHashMap<>();
                op.put("name", o.name());
                op.put("description", o.description());
                op.put("inputSchema", o.inputSchema() == null ? null : o.inputSchema().tree());
                op.put("guarantee", o.guarantee().name());
                op.put("destructive", o.destructive());
                op.put("dryRun", o.dryRun());
                op.put("compensable", o.compensable());
                op.put("approval", o.approvalRequired() ? "required" : "none");
                ops.add(op);
            }
            Map<String, Object> tool = new LinkedHashMap<>();
            tool.put("name", t.name());
            tool.put("description", t.description());
            tool.put("capabilities", t.capabilities().stream().map(Capability::name).sorted().toList());
            tool.put("operations", ops);
            tools.add(tool);
        }
        return Map.of("catalogueVersion", 1, "tools", tools);
    }
}
