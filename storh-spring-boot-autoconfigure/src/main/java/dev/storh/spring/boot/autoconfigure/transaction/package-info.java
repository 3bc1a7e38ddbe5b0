/**
 * Auto-configuration of the storh transaction manager.
 */
package dev.storh.spring.boot.autoconfigure.transaction;
