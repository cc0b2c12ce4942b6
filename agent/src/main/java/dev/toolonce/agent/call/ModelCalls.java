package dev.toolonce.agent.call;

import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.schemas.ArgumentsSchema;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.Step;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a model's tool call becomes an awaitable call (docs/agent-calls.md §3), for every framework adapter (Spring
 * AI, LangChain4j, the MCP gateway): the arguments as the model wrote them, the key of that call in its turn, one
 * {@link ToolCalls#call(dev.toolonce.schemas.ToolIntent, Duration)}, and the answer as the JSON text the model reads.
 * Thread-safe.
 */
public final class ModelCalls {
    /** The step id of a call held for approval, in its own one-step task (docs/agent-calls.md §7). */
    public static final String APPROVAL_STEP = "call";
    /** The status a model reads while a call waits for an operator's approval. */
    public static final String AWAITING_APPROVAL = "AWAITING_APPROVAL";

    private final ToolCalls calls;
    private final TaskEngine tasks;
    private final String tenantId;
    private final Duration wait;
    private static final EventCodec CODEC = new EventCodec();
    /** Each tool's schema, compiled once: arguments that break it are refused here, before anything is written. */
    private final Map<CatalogueTool, ArgumentsSchema> schemas = new ConcurrentHashMap<>();

    /**
     * @param calls    the awaitable calls
     * @param tenantId the tenant every call is made for
     * @param wait     how long a call waits for its answer before the model is told it is pending
     */
    public ModelCalls(ToolCalls calls, String tenantId, Duration wait) {
        this(calls, null, tenantId, wait);
    }

    /** @param tasks holds the calls of operations that need an operator's approval; null when this door has none */
    public ModelCalls(ToolCalls calls, TaskEngine tasks, String tenantId, Duration wait) {
        this.calls = calls;
        this.tasks = tasks;
        this.tenantId = tenantId;
        this.wait = wait;
    }

    public String tenantId() {
        return tenantId;
    }

    /**
     * Makes the call a model asked for, in a turn of a conversation, and answers it as the model should read it.
     * Arguments that are not a JSON object, or that the contract refuses, are answered as a refusal naming the field;
     * nothing is sent then.
     *
     * @param turn the keys of this attempt at the turn ({@link TurnKeys})
     */
    public String call(CatalogueTool tool, String arguments, TurnKeys turn) {
        JsonNode args;
        try {
            args = arguments(arguments);
        } catch (IllegalArgumentException e) {
            return refusal("INVALID_ARGUMENTS", e.getMessage());
        }
        List<String> violations = violations(tool, args);
        if (!violations.isEmpty()) {
            return refusal("INVALID_ARGUMENTS", ArgumentsSchema.describe(tool.tool(), tool.operation(), violations));
        }
        String key;
        try {
            key = turn.next(tool.tool(), tool.operation(), args);
        } catch (InvalidArgumentsException e) {
            return refusal("INVALID_ARGUMENTS", e.getMessage());
        }
        try {
            return answer(call(tool, args, turn.conversationId(), key, Duration.ofSeconds(1), () -> { }));
        } catch (IllegalArgumentException e) {
            return refusal("INVALID_ARGUMENTS", e.getMessage());
        }
    }

    /**
     * Makes a call under a key the caller chose (a business key, or one derived as docs/agent-calls.md §1 shows), waits
     * for it at most this instance's {@code wait}, and calls {@code tick} every {@code tickEvery} of waiting (an MCP
     * progress notification, say). The arguments are not checked here: see {@link #violations}.
     *
     * @throws IllegalArgumentException when the contract refuses the intent (nothing is written then)
     */
    public CallOutcome call(CatalogueTool tool, JsonNode args, String conversationId, String key, Duration tickEvery,
                            Runnable tick) {
        if (tool.approvalRequired()) {
            return callAfterApproval(tool, args, key, tickEvery, tick);
        }
        ToolIntent intent = ToolCalls.intent(tenantId, conversationId, tool.tool(), tool.operation(), key, args);
        return waitFor(calls.call(intent), CallRef.of(intent), tickEvery, tick);
    }

    /**
     * Waits for an answer at most this instance's {@code wait}, calling {@code tick} every {@code tickEvery}; when the
     * time is up, the call's state: pending, or {@link #AWAITING_APPROVAL} while no row exists yet.
     */
    private CallOutcome waitFor(CompletableFuture<CallOutcome> answer, CallRef ref, Duration tickEvery, Runnable tick) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                answer.cancel(false);
                return answer.isDone() && !answer.isCancelled() ? answer.join()
                        : calls.find(ref).orElse(new CallOutcome.Pending(ref, AWAITING_APPROVAL));
            }
            try {
                return answer.get(Math.min(left, tickEvery.toNanos()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException stillWaiting) {
                tick.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                answer.cancel(false);
                return calls.find(ref).orElse(new CallOutcome.Pending(ref, AWAITING_APPROVAL));
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
    }

    /**
     * A call of an operation marked {@code approval: required}: a one-step task of its own, keyed by the call's key, whose
     * step waits for an operator's approval through the task API before its intent is published (the task engine's
     * approval, pinned to the step's key). Asked for again under the same key, it is the same task: the same wait, or
     * the stored answer; with other arguments, {@code IDEMPOTENCY_PARAMETER_MISMATCH}.
     */
    private CallOutcome callAfterApproval(CatalogueTool tool, JsonNode args, String key, Duration tickEvery,
                                          Runnable tick) {
        String taskId = approvalTaskId(tenantId, tool, key);
        if (tasks == null) {
            throw new IllegalArgumentException(tool.tool() + "/" + tool.operation() + " needs an operator's approval, "
                    + "and this door has no task engine to hold it; nothing was sent");
        }
        List<Step> held = tasks.steps(tenantId, taskId);
        boolean askedHere = held.isEmpty();
        if (askedHere) {
            tasks.submit(Plan.of(tenantId, taskId, StepSpec.of(APPROVAL_STEP, tool.tool(), tool.operation(), args)
                    .withApproval()));
            held = tasks.steps(tenantId, taskId);
        }
        Step step = held.get(0);
        String askedHash = CallKeys.requestHash(tenantId, tool.tool(), tool.operation(), args);
        String heldHash = CallKeys.requestHash(tenantId, step.tool(), step.operation(),
                CODEC.parse(step.argumentsJson().getBytes(StandardCharsets.UTF_8)));
        CallRef ref = new CallRef(tenantId, taskId, APPROVAL_STEP, step.key());
        if (!askedHash.equals(heldHash)) {
            return CallOutcome.Answered.refusedAsAskedBefore(ref, "IDEMPOTENCY_PARAMETER_MISMATCH", "the key " + key
                    + " was first asked for with other arguments; nothing was sent");
        }
        // Until an operator approves there is no intent and no row: the wait is registered all the same, and the
        // poll of open waits finds the row once the task engine has published the step
        return waitFor(calls.expect(ref, askedHere), ref, tickEvery, tick);
    }

    /** The task of a call held for approval: one per tenant, tool, operation and key, within the 255 characters allowed. */
    public static String approvalTaskId(String tenantId, CatalogueTool tool, String key) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest((tenantId + "/" + tool.tool()
                    + "/" + tool.operation() + "/" + key).getBytes(StandardCharsets.UTF_8));
            return "approval-" + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The arguments a model wrote, as a JSON object (none is an empty object).
     *
     * @throws IllegalArgumentException naming what is wrong, when they are not JSON or not an object
     */
    static JsonNode arguments(String arguments) {
        JsonNode args;
        try {
            args = arguments == null || arguments.isBlank() ? JsonNodeFactory.instance.objectNode()
                    : CODEC.parse(arguments.getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the arguments are not JSON: " + e.getMessage(), e);
        }
        if (!args.isObject()) {
            throw new IllegalArgumentException("the arguments must be a JSON object");
        }
        return args;
    }

    /** What is wrong with arguments by the tool's schema, each naming the field; empty when they pass. */
    public List<String> violations(CatalogueTool tool, JsonNode args) {
        ArgumentsSchema schema = schemas.computeIfAbsent(tool, t -> {
            try {
                return ArgumentsSchema.parse(t.inputSchema().toString());
            } catch (IllegalArgumentException unusable) {
                return null; // the executor checks what it declared; nothing to check here
            }
        });
        return schema == null ? List.of() : schema.violations(args);
    }

    /** The JSON text a model reads for an outcome: its status, and the result, the refusal or why it is pending. */
    public static String answer(CallOutcome outcome) {
        return answerNode(outcome).toString();
    }

    /** {@link #answer} as a tree, for a door that sends it structured too (MCP's {@code structuredContent}). */
    public static ObjectNode answerNode(CallOutcome outcome) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        if (outcome instanceof CallOutcome.Answered a) {
            out.put("status", a.status().name());
            if (a.result() != null) {
                out.set("result", a.result());
            }
            if (a.externalObjectId() != null) {
                out.put("externalObjectId", a.externalObjectId());
            }
            if (a.errorCode() != null) {
                out.putObject("error").put("code", a.errorCode()).put("message", a.errorMessage());
            }
            out.put("replayed", a.replayed());
        } else if (outcome instanceof CallOutcome.Pending p && AWAITING_APPROVAL.equals(p.status())) {
            out.put("status", p.status());
            out.put("message", "The call waits for an operator's approval and nothing was sent yet; ask again with "
                    + "the same arguments to get its answer. Tell the user it is waiting for approval.");
            out.putObject("approval").put("taskId", p.ref().taskId()).put("stepId", p.ref().stepId())
                    .put("idempotencyKey", p.ref().idempotencyKey());
        } else if (outcome instanceof CallOutcome.Pending p) {
            out.put("status", p.status());
            out.put("message", "NEEDS_REVIEW".equals(p.status())
                    ? "The call is held for a person to review; it will not be repeated. Tell the user it is pending review."
                    : "The call was accepted and is still running; it will not be repeated. Tell the user it is pending.");
        }
        out.put("idempotencyKey", outcome.ref().idempotencyKey());
        return out;
    }

    /** A refusal as the model reads it: nothing was sent. */
    public static String refusal(String code, String message) {
        return refusalNode(code, message).toString();
    }

    /** {@link #refusal} as a tree. */
    public static ObjectNode refusalNode(String code, String message) {
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("status", "REJECTED");
        out.putObject("error").put("code", code).put("message", message);
        return out;
    }
}
