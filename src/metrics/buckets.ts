// The kubelet's histogram buckets (pkg/kubelet/metrics/metrics.go), shared by the families that
// use them so that every family keeps the kubelet's boundaries.
import {exponentialBuckets} from 'prom-client'

/** prometheus.DefBuckets. */
export const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
export const POD_START_BUCKETS = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600]
export const RUNTIME_OPERATION_BUCKETS = exponentialBuckets(0.005, 2.5, 14)
export const IMAGE_PULL_BUCKETS = [1, 5, 10, 20, 30, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600]

/** Every kube-node pod is a static pod (the kubelet's static label): not from an API server. */
export const STATIC = 'true'
