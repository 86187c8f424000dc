package io.github.flinkinfer.jobs.testutils;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds what a reader of a run's description could change: public fields that are not final or
 * hold an array, over every type of ours reachable from a root (its public fields, record
 * components, their type arguments, its public nested types, a sealed type's subtypes); and, in a
 * built value, collections that are not unmodifiable and arrays handed out without a copy.
 *
 * <pre>{@code
 * assertThat(NoPublicMutableFields.inTypes(RunSpec.class)).isEmpty();
 * assertThat(NoPublicMutableFields.inValue(spec)).isEmpty();
 * }</pre>
 */
public final class NoPublicMutableFields {
    private static final String OURS = "io.github.flinkinfer.";
    /** Implementations of the JDK's unmodifiable collections, by class name prefix. */
    private static final List<String> UNMODIFIABLE = List.of("java.util.ImmutableCollections$",
            "java.util.Collections$Unmodifiable", "java.util.Collections$Empty", "java.util.Collections$Singleton");

    private NoPublicMutableFields() {}

    /** Every type of ours reachable from {@code roots}, the roots first. */
    public static Set<Class<?>> reachable(Class<?>... roots) {
        Set<Class<?>> seen = new LinkedHashSet<>();
        for (Class<?> root : roots) {
            visit(root, seen);
        }
        return seen;
    }

    /** One line per public field that is not final or holds an array ({@code Type.field: why}). */
    public static List<String> inTypes(Class<?>... roots) {
        List<String> problems = new ArrayList<>();
        for (Class<?> type : reachable(roots)) {
            for (Field f : type.getDeclaredFields()) {
                if (!Modifier.isPublic(f.getModifiers()) || f.isSynthetic() || f.isEnumConstant()) {
                    continue;
                }
                if (!Modifier.isFinal(f.getModifiers())) {
                    problems.add(type.getName() + "." + f.getName() + ": public and not final");
                } else if (f.getType().isArray()) {
                    problems.add(type.getName() + "." + f.getName() + ": a public array");
                }
            }
        }
        return problems;
    }

    /**
     * One line per collection in {@code root}'s public state (public fields and record components,
     * through our types, collections and map values) that is not unmodifiable, and per record
     * array component whose accessor returns the record's own array.
     */
    public static List<String> inValue(Object root) {
        List<String> problems = new ArrayList<>();
        walk(root, root == null ? "" : root.getClass().getSimpleName(), problems,
                Collections.newSetFromMap(new IdentityHashMap<>()));
        return problems;
    }

    private static void visit(Type type, Set<Class<?>> seen) {
        if (type instanceof ParameterizedType p) {
            visit(p.getRawType(), seen);
            for (Type argument : p.getActualTypeArguments()) {
                visit(argument, seen);
            }
        } else if (type instanceof GenericArrayType a) {
            visit(a.getGenericComponentType(), seen);
        } else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                visit(bound, seen);
            }
        } else if (type instanceof Class<?> c) {
            if (c.isArray()) {
                visit(c.getComponentType(), seen);
            } else if (c.getName().startsWith(OURS) && seen.add(c)) {
                visitMembers(c, seen);
            }
        }
    }

    private static void visitMembers(Class<?> c, Set<Class<?>> seen) {
        for (Field f : c.getDeclaredFields()) {
            if (Modifier.isPublic(f.getModifiers())) {
                visit(f.getGenericType(), seen);
            }
        }
        if (c.isRecord()) {
            for (RecordComponent rc : c.getRecordComponents()) {
                visit(rc.getGenericType(), seen);
            }
        }
        for (Class<?> nested : c.getDeclaredClasses()) {
            if (Modifier.isPublic(nested.getModifiers())) {
                visit(nested, seen);
            }
        }
        if (c.isSealed()) {
            for (Class<?> sub : c.getPermittedSubclasses()) {
                visit(sub, seen);
            }
        }
    }

    private static void walk(Object value, String at, List<String> problems, Set<Object> seen) {
        if (value == null || !seen.add(value)) {
            return;
        }
        if (value instanceof Collection<?> c) {
            requireUnmodifiable(value, at, problems);
            int i = 0;
            for (Object element : c) {
                walk(element, at + "[" + i++ + "]", problems, seen);
            }
        } else if (value instanceof Map<?, ?> m) {
            requireUnmodifiable(value, at, problems);
            m.forEach((k, v) -> walk(v, at + "[" + k + "]", problems, seen));
        } else if (value.getClass().getName().startsWith(OURS) && !value.getClass().isEnum()) {
            walkMembers(value, at, problems, seen);
        }
    }

    private static void walkMembers(Object value, String at, List<String> problems, Set<Object> seen) {
        Class<?> type = value.getClass();
        try {
            for (Field f : type.getFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    walk(f.get(value), at + "." + f.getName(), problems, seen);
                }
            }
            if (type.isRecord()) {
                for (RecordComponent rc : type.getRecordComponents()) {
                    rc.getAccessor().setAccessible(true);
                    Object component = rc.getAccessor().invoke(value);
                    if (component != null && component.getClass().isArray()
                            && component == rc.getAccessor().invoke(value)) {
                        problems.add(at + "." + rc.getName() + ": the record's own array, not a copy");
                    }
                    walk(component, at + "." + rc.getName(), problems, seen);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot read " + at, e);
        }
    }

    private static void requireUnmodifiable(Object collection, String at, List<String> problems) {
        String name = collection.getClass().getName();
        if (UNMODIFIABLE.stream().noneMatch(name::startsWith)) {
            problems.add(at + ": a modifiable " + name);
        }
    }
}
