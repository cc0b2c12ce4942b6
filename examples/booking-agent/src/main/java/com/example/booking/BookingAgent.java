package com.example.booking;

import dev.toolonce.agent.results.ResultHandler;
import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.Task;
import dev.toolonce.agent.task.TaskEngine;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@SpringBootApplication
public class BookingAgent {
    public static void main(String[] args) { SpringApplication.run(BookingAgent.class, args); }

    @RestController
    static class Bookings {
        private final TaskEngine tasks;
        Bookings(TaskEngine tasks) { this.tasks = tasks; }

        /** reserve a ticket → charge a payment → send a confirmation email; undone in reverse if the charge fails */
        @PostMapping("/bookings/{id}")
        Task book(@PathVariable String id, @RequestParam int amount, @RequestParam String email) {
            return tasks.submit(Plan.of("acme", "booking-" + id,
                    StepSpec.of("reserve", "tickets", "create", Map.of("title", "seat for " + id))
                            .withCompensation(),                       // cancelled if a later step fails
                    StepSpec.of("charge", "payments", "charge", Map.of("amount", amount, "currency", "EUR"))
                            .withDryRun()                              // the tool checks the arguments first
                            .withCompensation().withApproval(),        // refunded if needed; waits for an operator
                    StepSpec.of("confirm", "email", "send", Map.of("to", email, "subject", "your seat"))
                            .asIrreversible()));                       // must come last: refused otherwise
        }
    }

    /** Every result, once, in the consumer's transaction (or listen for ToolResultReceived events). */
    @Bean
    ResultHandler audit(JdbcTemplate jdbc) {
        return r -> jdbc.update("INSERT INTO booking_audit (task_id, step_id, status) VALUES (?, ?, ?)",
                r.taskId(), r.stepId(), r.status().name());
    }
}
