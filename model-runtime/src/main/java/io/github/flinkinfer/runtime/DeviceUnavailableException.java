package io.github.flinkinfer.runtime;

/** The requested device ({@code cuda}) cannot be used on this machine. */
public class DeviceUnavailableException extends RuntimeException {
    public DeviceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
