/**
 * Spring Boot auto-configuration of the Azure Blob Storage backend: {@code storh.backend=azure-blob}
 * with {@code storh.azure.blob.*} makes an {@link dev.storh.azure.blob.AzureBlobBackend} bean and
 * a health indicator that checks its container.
 */
package dev.storh.azure.blob.spring;
