import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthConfig as _runtime_v1_AuthConfig, AuthConfig__Output as _runtime_v1_AuthConfig__Output } from './runtime/v1/AuthConfig.js';
import type { Capability as _runtime_v1_Capability, Capability__Output as _runtime_v1_Capability__Output } from './runtime/v1/Capability.js';
import type { Container as _runtime_v1_Container, Container__Output as _runtime_v1_Container__Output } from './runtime/v1/Container.js';
import type { ContainerAttributes as _runtime_v1_ContainerAttributes, ContainerAttributes__Output as _runtime_v1_ContainerAttributes__Output } from './runtime/v1/ContainerAttributes.js';
import type { ContainerConfig as _runtime_v1_ContainerConfig, ContainerConfig__Output as _runtime_v1_ContainerConfig__Output } from './runtime/v1/ContainerConfig.js';
import type { ContainerFilter as _runtime_v1_ContainerFilter, ContainerFilter__Output as _runtime_v1_ContainerFilter__Output } from './runtime/v1/ContainerFilter.js';
import type { ContainerMetadata as _runtime_v1_ContainerMetadata, ContainerMetadata__Output as _runtime_v1_ContainerMetadata__Output } from './runtime/v1/ContainerMetadata.js';
import type { ContainerStateValue as _runtime_v1_ContainerStateValue, ContainerStateValue__Output as _runtime_v1_ContainerStateValue__Output } from './runtime/v1/ContainerStateValue.js';
import type { ContainerStats as _runtime_v1_ContainerStats, ContainerStats__Output as _runtime_v1_ContainerStats__Output } from './runtime/v1/ContainerStats.js';
import type { ContainerStatsFilter as _runtime_v1_ContainerStatsFilter, ContainerStatsFilter__Output as _runtime_v1_ContainerStatsFilter__Output } from './runtime/v1/ContainerStatsFilter.js';
import type { ContainerStatus as _runtime_v1_ContainerStatus, ContainerStatus__Output as _runtime_v1_ContainerStatus__Output } from './runtime/v1/ContainerStatus.js';
import type { ContainerStatusRequest as _runtime_v1_ContainerStatusRequest, ContainerStatusRequest__Output as _runtime_v1_ContainerStatusRequest__Output } from './runtime/v1/ContainerStatusRequest.js';
import type { ContainerStatusResponse as _runtime_v1_ContainerStatusResponse, ContainerStatusResponse__Output as _runtime_v1_ContainerStatusResponse__Output } from './runtime/v1/ContainerStatusResponse.js';
import type { CpuUsage as _runtime_v1_CpuUsage, CpuUsage__Output as _runtime_v1_CpuUsage__Output } from './runtime/v1/CpuUsage.js';
import type { CreateContainerRequest as _runtime_v1_CreateContainerRequest, CreateContainerRequest__Output as _runtime_v1_CreateContainerRequest__Output } from './runtime/v1/CreateContainerRequest.js';
import type { CreateContainerResponse as _runtime_v1_CreateContainerResponse, CreateContainerResponse__Output as _runtime_v1_CreateContainerResponse__Output } from './runtime/v1/CreateContainerResponse.js';
import type { DNSConfig as _runtime_v1_DNSConfig, DNSConfig__Output as _runtime_v1_DNSConfig__Output } from './runtime/v1/DNSConfig.js';
import type { ExecSyncRequest as _runtime_v1_ExecSyncRequest, ExecSyncRequest__Output as _runtime_v1_ExecSyncRequest__Output } from './runtime/v1/ExecSyncRequest.js';
import type { ExecSyncResponse as _runtime_v1_ExecSyncResponse, ExecSyncResponse__Output as _runtime_v1_ExecSyncResponse__Output } from './runtime/v1/ExecSyncResponse.js';
import type { Image as _runtime_v1_Image, Image__Output as _runtime_v1_Image__Output } from './runtime/v1/Image.js';
import type { ImageFilter as _runtime_v1_ImageFilter, ImageFilter__Output as _runtime_v1_ImageFilter__Output } from './runtime/v1/ImageFilter.js';
import type { ImageServiceClient as _runtime_v1_ImageServiceClient, ImageServiceDefinition as _runtime_v1_ImageServiceDefinition } from './runtime/v1/ImageService.js';
import type { ImageSpec as _runtime_v1_ImageSpec, ImageSpec__Output as _runtime_v1_ImageSpec__Output } from './runtime/v1/ImageSpec.js';
import type { ImageStatusRequest as _runtime_v1_ImageStatusRequest, ImageStatusRequest__Output as _runtime_v1_ImageStatusRequest__Output } from './runtime/v1/ImageStatusRequest.js';
import type { ImageStatusResponse as _runtime_v1_ImageStatusResponse, ImageStatusResponse__Output as _runtime_v1_ImageStatusResponse__Output } from './runtime/v1/ImageStatusResponse.js';
import type { Int64Value as _runtime_v1_Int64Value, Int64Value__Output as _runtime_v1_Int64Value__Output } from './runtime/v1/Int64Value.js';
import type { KeyValue as _runtime_v1_KeyValue, KeyValue__Output as _runtime_v1_KeyValue__Output } from './runtime/v1/KeyValue.js';
import type { LinuxContainerConfig as _runtime_v1_LinuxContainerConfig, LinuxContainerConfig__Output as _runtime_v1_LinuxContainerConfig__Output } from './runtime/v1/LinuxContainerConfig.js';
import type { LinuxContainerResources as _runtime_v1_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1_LinuxContainerResources__Output } from './runtime/v1/LinuxContainerResources.js';
import type { LinuxContainerSecurityContext as _runtime_v1_LinuxContainerSecurityContext, LinuxContainerSecurityContext__Output as _runtime_v1_LinuxContainerSecurityContext__Output } from './runtime/v1/LinuxContainerSecurityContext.js';
import type { LinuxPodSandboxConfig as _runtime_v1_LinuxPodSandboxConfig, LinuxPodSandboxConfig__Output as _runtime_v1_LinuxPodSandboxConfig__Output } from './runtime/v1/LinuxPodSandboxConfig.js';
import type { LinuxPodSandboxStatus as _runtime_v1_LinuxPodSandboxStatus, LinuxPodSandboxStatus__Output as _runtime_v1_LinuxPodSandboxStatus__Output } from './runtime/v1/LinuxPodSandboxStatus.js';
import type { LinuxSandboxSecurityContext as _runtime_v1_LinuxSandboxSecurityContext, LinuxSandboxSecurityContext__Output as _runtime_v1_LinuxSandboxSecurityContext__Output } from './runtime/v1/LinuxSandboxSecurityContext.js';
import type { ListContainerStatsRequest as _runtime_v1_ListContainerStatsRequest, ListContainerStatsRequest__Output as _runtime_v1_ListContainerStatsRequest__Output } from './runtime/v1/ListContainerStatsRequest.js';
import type { ListContainerStatsResponse as _runtime_v1_ListContainerStatsResponse, ListContainerStatsResponse__Output as _runtime_v1_ListContainerStatsResponse__Output } from './runtime/v1/ListContainerStatsResponse.js';
import type { ListContainersRequest as _runtime_v1_ListContainersRequest, ListContainersRequest__Output as _runtime_v1_ListContainersRequest__Output } from './runtime/v1/ListContainersRequest.js';
import type { ListContainersResponse as _runtime_v1_ListContainersResponse, ListContainersResponse__Output as _runtime_v1_ListContainersResponse__Output } from './runtime/v1/ListContainersResponse.js';
import type { ListImagesRequest as _runtime_v1_ListImagesRequest, ListImagesRequest__Output as _runtime_v1_ListImagesRequest__Output } from './runtime/v1/ListImagesRequest.js';
import type { ListImagesResponse as _runtime_v1_ListImagesResponse, ListImagesResponse__Output as _runtime_v1_ListImagesResponse__Output } from './runtime/v1/ListImagesResponse.js';
import type { ListPodSandboxRequest as _runtime_v1_ListPodSandboxRequest, ListPodSandboxRequest__Output as _runtime_v1_ListPodSandboxRequest__Output } from './runtime/v1/ListPodSandboxRequest.js';
import type { ListPodSandboxResponse as _runtime_v1_ListPodSandboxResponse, ListPodSandboxResponse__Output as _runtime_v1_ListPodSandboxResponse__Output } from './runtime/v1/ListPodSandboxResponse.js';
import type { MemoryUsage as _runtime_v1_MemoryUsage, MemoryUsage__Output as _runtime_v1_MemoryUsage__Output } from './runtime/v1/MemoryUsage.js';
import type { Mount as _runtime_v1_Mount, Mount__Output as _runtime_v1_Mount__Output } from './runtime/v1/Mount.js';
import type { Namespace as _runtime_v1_Namespace, Namespace__Output as _runtime_v1_Namespace__Output } from './runtime/v1/Namespace.js';
import type { NamespaceOption as _runtime_v1_NamespaceOption, NamespaceOption__Output as _runtime_v1_NamespaceOption__Output } from './runtime/v1/NamespaceOption.js';
import type { PodIP as _runtime_v1_PodIP, PodIP__Output as _runtime_v1_PodIP__Output } from './runtime/v1/PodIP.js';
import type { PodSandbox as _runtime_v1_PodSandbox, PodSandbox__Output as _runtime_v1_PodSandbox__Output } from './runtime/v1/PodSandbox.js';
import type { PodSandboxConfig as _runtime_v1_PodSandboxConfig, PodSandboxConfig__Output as _runtime_v1_PodSandboxConfig__Output } from './runtime/v1/PodSandboxConfig.js';
import type { PodSandboxFilter as _runtime_v1_PodSandboxFilter, PodSandboxFilter__Output as _runtime_v1_PodSandboxFilter__Output } from './runtime/v1/PodSandboxFilter.js';
import type { PodSandboxMetadata as _runtime_v1_PodSandboxMetadata, PodSandboxMetadata__Output as _runtime_v1_PodSandboxMetadata__Output } from './runtime/v1/PodSandboxMetadata.js';
import type { PodSandboxNetworkStatus as _runtime_v1_PodSandboxNetworkStatus, PodSandboxNetworkStatus__Output as _runtime_v1_PodSandboxNetworkStatus__Output } from './runtime/v1/PodSandboxNetworkStatus.js';
import type { PodSandboxStateValue as _runtime_v1_PodSandboxStateValue, PodSandboxStateValue__Output as _runtime_v1_PodSandboxStateValue__Output } from './runtime/v1/PodSandboxStateValue.js';
import type { PodSandboxStatus as _runtime_v1_PodSandboxStatus, PodSandboxStatus__Output as _runtime_v1_PodSandboxStatus__Output } from './runtime/v1/PodSandboxStatus.js';
import type { PodSandboxStatusRequest as _runtime_v1_PodSandboxStatusRequest, PodSandboxStatusRequest__Output as _runtime_v1_PodSandboxStatusRequest__Output } from './runtime/v1/PodSandboxStatusRequest.js';
import type { PodSandboxStatusResponse as _runtime_v1_PodSandboxStatusResponse, PodSandboxStatusResponse__Output as _runtime_v1_PodSandboxStatusResponse__Output } from './runtime/v1/PodSandboxStatusResponse.js';
import type { PortMapping as _runtime_v1_PortMapping, PortMapping__Output as _runtime_v1_PortMapping__Output } from './runtime/v1/PortMapping.js';
import type { PullImageRequest as _runtime_v1_PullImageRequest, PullImageRequest__Output as _runtime_v1_PullImageRequest__Output } from './runtime/v1/PullImageRequest.js';
import type { PullImageResponse as _runtime_v1_PullImageResponse, PullImageResponse__Output as _runtime_v1_PullImageResponse__Output } from './runtime/v1/PullImageResponse.js';
import type { RemoveContainerRequest as _runtime_v1_RemoveContainerRequest, RemoveContainerRequest__Output as _runtime_v1_RemoveContainerRequest__Output } from './runtime/v1/RemoveContainerRequest.js';
import type { RemoveContainerResponse as _runtime_v1_RemoveContainerResponse, RemoveContainerResponse__Output as _runtime_v1_RemoveContainerResponse__Output } from './runtime/v1/RemoveContainerResponse.js';
import type { RemoveImageRequest as _runtime_v1_RemoveImageRequest, RemoveImageRequest__Output as _runtime_v1_RemoveImageRequest__Output } from './runtime/v1/RemoveImageRequest.js';
import type { RemoveImageResponse as _runtime_v1_RemoveImageResponse, RemoveImageResponse__Output as _runtime_v1_RemoveImageResponse__Output } from './runtime/v1/RemoveImageResponse.js';
import type { RemovePodSandboxRequest as _runtime_v1_RemovePodSandboxRequest, RemovePodSandboxRequest__Output as _runtime_v1_RemovePodSandboxRequest__Output } from './runtime/v1/RemovePodSandboxRequest.js';
import type { RemovePodSandboxResponse as _runtime_v1_RemovePodSandboxResponse, RemovePodSandboxResponse__Output as _runtime_v1_RemovePodSandboxResponse__Output } from './runtime/v1/RemovePodSandboxResponse.js';
import type { ReopenContainerLogRequest as _runtime_v1_ReopenContainerLogRequest, ReopenContainerLogRequest__Output as _runtime_v1_ReopenContainerLogRequest__Output } from './runtime/v1/ReopenContainerLogRequest.js';
import type { ReopenContainerLogResponse as _runtime_v1_ReopenContainerLogResponse, ReopenContainerLogResponse__Output as _runtime_v1_ReopenContainerLogResponse__Output } from './runtime/v1/ReopenContainerLogResponse.js';
import type { RunPodSandboxRequest as _runtime_v1_RunPodSandboxRequest, RunPodSandboxRequest__Output as _runtime_v1_RunPodSandboxRequest__Output } from './runtime/v1/RunPodSandboxRequest.js';
import type { RunPodSandboxResponse as _runtime_v1_RunPodSandboxResponse, RunPodSandboxResponse__Output as _runtime_v1_RunPodSandboxResponse__Output } from './runtime/v1/RunPodSandboxResponse.js';
import type { RuntimeCondition as _runtime_v1_RuntimeCondition, RuntimeCondition__Output as _runtime_v1_RuntimeCondition__Output } from './runtime/v1/RuntimeCondition.js';
import type { RuntimeFeatures as _runtime_v1_RuntimeFeatures, RuntimeFeatures__Output as _runtime_v1_RuntimeFeatures__Output } from './runtime/v1/RuntimeFeatures.js';
import type { RuntimeHandler as _runtime_v1_RuntimeHandler, RuntimeHandler__Output as _runtime_v1_RuntimeHandler__Output } from './runtime/v1/RuntimeHandler.js';
import type { RuntimeHandlerFeatures as _runtime_v1_RuntimeHandlerFeatures, RuntimeHandlerFeatures__Output as _runtime_v1_RuntimeHandlerFeatures__Output } from './runtime/v1/RuntimeHandlerFeatures.js';
import type { RuntimeServiceClient as _runtime_v1_RuntimeServiceClient, RuntimeServiceDefinition as _runtime_v1_RuntimeServiceDefinition } from './runtime/v1/RuntimeService.js';
import type { RuntimeStatus as _runtime_v1_RuntimeStatus, RuntimeStatus__Output as _runtime_v1_RuntimeStatus__Output } from './runtime/v1/RuntimeStatus.js';
import type { SELinuxOption as _runtime_v1_SELinuxOption, SELinuxOption__Output as _runtime_v1_SELinuxOption__Output } from './runtime/v1/SELinuxOption.js';
import type { SecurityProfile as _runtime_v1_SecurityProfile, SecurityProfile__Output as _runtime_v1_SecurityProfile__Output } from './runtime/v1/SecurityProfile.js';
import type { StartContainerRequest as _runtime_v1_StartContainerRequest, StartContainerRequest__Output as _runtime_v1_StartContainerRequest__Output } from './runtime/v1/StartContainerRequest.js';
import type { StartContainerResponse as _runtime_v1_StartContainerResponse, StartContainerResponse__Output as _runtime_v1_StartContainerResponse__Output } from './runtime/v1/StartContainerResponse.js';
import type { StatusRequest as _runtime_v1_StatusRequest, StatusRequest__Output as _runtime_v1_StatusRequest__Output } from './runtime/v1/StatusRequest.js';
import type { StatusResponse as _runtime_v1_StatusResponse, StatusResponse__Output as _runtime_v1_StatusResponse__Output } from './runtime/v1/StatusResponse.js';
import type { StopContainerRequest as _runtime_v1_StopContainerRequest, StopContainerRequest__Output as _runtime_v1_StopContainerRequest__Output } from './runtime/v1/StopContainerRequest.js';
import type { StopContainerResponse as _runtime_v1_StopContainerResponse, StopContainerResponse__Output as _runtime_v1_StopContainerResponse__Output } from './runtime/v1/StopContainerResponse.js';
import type { StopPodSandboxRequest as _runtime_v1_StopPodSandboxRequest, StopPodSandboxRequest__Output as _runtime_v1_StopPodSandboxRequest__Output } from './runtime/v1/StopPodSandboxRequest.js';
import type { StopPodSandboxResponse as _runtime_v1_StopPodSandboxResponse, StopPodSandboxResponse__Output as _runtime_v1_StopPodSandboxResponse__Output } from './runtime/v1/StopPodSandboxResponse.js';
import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from './runtime/v1/UInt64Value.js';
import type { VersionRequest as _runtime_v1_VersionRequest, VersionRequest__Output as _runtime_v1_VersionRequest__Output } from './runtime/v1/VersionRequest.js';
import type { VersionResponse as _runtime_v1_VersionResponse, VersionResponse__Output as _runtime_v1_VersionResponse__Output } from './runtime/v1/VersionResponse.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  runtime: {
    v1: {
      AuthConfig: MessageTypeDefinition<_runtime_v1_AuthConfig, _runtime_v1_AuthConfig__Output>
      Capability: MessageTypeDefinition<_runtime_v1_Capability, _runtime_v1_Capability__Output>
      Container: MessageTypeDefinition<_runtime_v1_Container, _runtime_v1_Container__Output>
      ContainerAttributes: MessageTypeDefinition<_runtime_v1_ContainerAttributes, _runtime_v1_ContainerAttributes__Output>
      ContainerConfig: MessageTypeDefinition<_runtime_v1_ContainerConfig, _runtime_v1_ContainerConfig__Output>
      ContainerFilter: MessageTypeDefinition<_runtime_v1_ContainerFilter, _runtime_v1_ContainerFilter__Output>
      ContainerMetadata: MessageTypeDefinition<_runtime_v1_ContainerMetadata, _runtime_v1_ContainerMetadata__Output>
      ContainerState: EnumTypeDefinition
      ContainerStateValue: MessageTypeDefinition<_runtime_v1_ContainerStateValue, _runtime_v1_ContainerStateValue__Output>
      ContainerStats: MessageTypeDefinition<_runtime_v1_ContainerStats, _runtime_v1_ContainerStats__Output>
      ContainerStatsFilter: MessageTypeDefinition<_runtime_v1_ContainerStatsFilter, _runtime_v1_ContainerStatsFilter__Output>
      ContainerStatus: MessageTypeDefinition<_runtime_v1_ContainerStatus, _runtime_v1_ContainerStatus__Output>
      ContainerStatusRequest: MessageTypeDefinition<_runtime_v1_ContainerStatusRequest, _runtime_v1_ContainerStatusRequest__Output>
      ContainerStatusResponse: MessageTypeDefinition<_runtime_v1_ContainerStatusResponse, _runtime_v1_ContainerStatusResponse__Output>
      CpuUsage: MessageTypeDefinition<_runtime_v1_CpuUsage, _runtime_v1_CpuUsage__Output>
      CreateContainerRequest: MessageTypeDefinition<_runtime_v1_CreateContainerRequest, _runtime_v1_CreateContainerRequest__Output>
      CreateContainerResponse: MessageTypeDefinition<_runtime_v1_CreateContainerResponse, _runtime_v1_CreateContainerResponse__Output>
      DNSConfig: MessageTypeDefinition<_runtime_v1_DNSConfig, _runtime_v1_DNSConfig__Output>
      ExecSyncRequest: MessageTypeDefinition<_runtime_v1_ExecSyncRequest, _runtime_v1_ExecSyncRequest__Output>
      ExecSyncResponse: MessageTypeDefinition<_runtime_v1_ExecSyncResponse, _runtime_v1_ExecSyncResponse__Output>
      Image: MessageTypeDefinition<_runtime_v1_Image, _runtime_v1_Image__Output>
      ImageFilter: MessageTypeDefinition<_runtime_v1_ImageFilter, _runtime_v1_ImageFilter__Output>
      ImageService: SubtypeConstructor<typeof grpc.Client, _runtime_v1_ImageServiceClient> & { service: _runtime_v1_ImageServiceDefinition }
      ImageSpec: MessageTypeDefinition<_runtime_v1_ImageSpec, _runtime_v1_ImageSpec__Output>
      ImageStatusRequest: MessageTypeDefinition<_runtime_v1_ImageStatusRequest, _runtime_v1_ImageStatusRequest__Output>
      ImageStatusResponse: MessageTypeDefinition<_runtime_v1_ImageStatusResponse, _runtime_v1_ImageStatusResponse__Output>
      Int64Value: MessageTypeDefinition<_runtime_v1_Int64Value, _runtime_v1_Int64Value__Output>
      KeyValue: MessageTypeDefinition<_runtime_v1_KeyValue, _runtime_v1_KeyValue__Output>
      LinuxContainerConfig: MessageTypeDefinition<_runtime_v1_LinuxContainerConfig, _runtime_v1_LinuxContainerConfig__Output>
      LinuxContainerResources: MessageTypeDefinition<_runtime_v1_LinuxContainerResources, _runtime_v1_LinuxContainerResources__Output>
      LinuxContainerSecurityContext: MessageTypeDefinition<_runtime_v1_LinuxContainerSecurityContext, _runtime_v1_LinuxContainerSecurityContext__Output>
      LinuxPodSandboxConfig: MessageTypeDefinition<_runtime_v1_LinuxPodSandboxConfig, _runtime_v1_LinuxPodSandboxConfig__Output>
      LinuxPodSandboxStatus: MessageTypeDefinition<_runtime_v1_LinuxPodSandboxStatus, _runtime_v1_LinuxPodSandboxStatus__Output>
      LinuxSandboxSecurityContext: MessageTypeDefinition<_runtime_v1_LinuxSandboxSecurityContext, _runtime_v1_LinuxSandboxSecurityContext__Output>
      ListContainerStatsRequest: MessageTypeDefinition<_runtime_v1_ListContainerStatsRequest, _runtime_v1_ListContainerStatsRequest__Output>
      ListContainerStatsResponse: MessageTypeDefinition<_runtime_v1_ListContainerStatsResponse, _runtime_v1_ListContainerStatsResponse__Output>
      ListContainersRequest: MessageTypeDefinition<_runtime_v1_ListContainersRequest, _runtime_v1_ListContainersRequest__Output>
      ListContainersResponse: MessageTypeDefinition<_runtime_v1_ListContainersResponse, _runtime_v1_ListContainersResponse__Output>
      ListImagesRequest: MessageTypeDefinition<_runtime_v1_ListImagesRequest, _runtime_v1_ListImagesRequest__Output>
      ListImagesResponse: MessageTypeDefinition<_runtime_v1_ListImagesResponse, _runtime_v1_ListImagesResponse__Output>
      ListPodSandboxRequest: MessageTypeDefinition<_runtime_v1_ListPodSandboxRequest, _runtime_v1_ListPodSandboxRequest__Output>
      ListPodSandboxResponse: MessageTypeDefinition<_runtime_v1_ListPodSandboxResponse, _runtime_v1_ListPodSandboxResponse__Output>
      MemoryUsage: MessageTypeDefinition<_runtime_v1_MemoryUsage, _runtime_v1_MemoryUsage__Output>
      Mount: MessageTypeDefinition<_runtime_v1_Mount, _runtime_v1_Mount__Output>
      MountPropagation: EnumTypeDefinition
      Namespace: MessageTypeDefinition<_runtime_v1_Namespace, _runtime_v1_Namespace__Output>
      NamespaceMode: EnumTypeDefinition
      NamespaceOption: MessageTypeDefinition<_runtime_v1_NamespaceOption, _runtime_v1_NamespaceOption__Output>
      PodIP: MessageTypeDefinition<_runtime_v1_PodIP, _runtime_v1_PodIP__Output>
      PodSandbox: MessageTypeDefinition<_runtime_v1_PodSandbox, _runtime_v1_PodSandbox__Output>
      PodSandboxConfig: MessageTypeDefinition<_runtime_v1_PodSandboxConfig, _runtime_v1_PodSandboxConfig__Output>
      PodSandboxFilter: MessageTypeDefinition<_runtime_v1_PodSandboxFilter, _runtime_v1_PodSandboxFilter__Output>
      PodSandboxMetadata: MessageTypeDefinition<_runtime_v1_PodSandboxMetadata, _runtime_v1_PodSandboxMetadata__Output>
      PodSandboxNetworkStatus: MessageTypeDefinition<_runtime_v1_PodSandboxNetworkStatus, _runtime_v1_PodSandboxNetworkStatus__Output>
      PodSandboxState: EnumTypeDefinition
      PodSandboxStateValue: MessageTypeDefinition<_runtime_v1_PodSandboxStateValue, _runtime_v1_PodSandboxStateValue__Output>
      PodSandboxStatus: MessageTypeDefinition<_runtime_v1_PodSandboxStatus, _runtime_v1_PodSandboxStatus__Output>
      PodSandboxStatusRequest: MessageTypeDefinition<_runtime_v1_PodSandboxStatusRequest, _runtime_v1_PodSandboxStatusRequest__Output>
      PodSandboxStatusResponse: MessageTypeDefinition<_runtime_v1_PodSandboxStatusResponse, _runtime_v1_PodSandboxStatusResponse__Output>
      PortMapping: MessageTypeDefinition<_runtime_v1_PortMapping, _runtime_v1_PortMapping__Output>
      Protocol: EnumTypeDefinition
      PullImageRequest: MessageTypeDefinition<_runtime_v1_PullImageRequest, _runtime_v1_PullImageRequest__Output>
      PullImageResponse: MessageTypeDefinition<_runtime_v1_PullImageResponse, _runtime_v1_PullImageResponse__Output>
      RemoveContainerRequest: MessageTypeDefinition<_runtime_v1_RemoveContainerRequest, _runtime_v1_RemoveContainerRequest__Output>
      RemoveContainerResponse: MessageTypeDefinition<_runtime_v1_RemoveContainerResponse, _runtime_v1_RemoveContainerResponse__Output>
      RemoveImageRequest: MessageTypeDefinition<_runtime_v1_RemoveImageRequest, _runtime_v1_RemoveImageRequest__Output>
      RemoveImageResponse: MessageTypeDefinition<_runtime_v1_RemoveImageResponse, _runtime_v1_RemoveImageResponse__Output>
      RemovePodSandboxRequest: MessageTypeDefinition<_runtime_v1_RemovePodSandboxRequest, _runtime_v1_RemovePodSandboxRequest__Output>
      RemovePodSandboxResponse: MessageTypeDefinition<_runtime_v1_RemovePodSandboxResponse, _runtime_v1_RemovePodSandboxResponse__Output>
      ReopenContainerLogRequest: MessageTypeDefinition<_runtime_v1_ReopenContainerLogRequest, _runtime_v1_ReopenContainerLogRequest__Output>
      ReopenContainerLogResponse: MessageTypeDefinition<_runtime_v1_ReopenContainerLogResponse, _runtime_v1_ReopenContainerLogResponse__Output>
      RunPodSandboxRequest: MessageTypeDefinition<_runtime_v1_RunPodSandboxRequest, _runtime_v1_RunPodSandboxRequest__Output>
      RunPodSandboxResponse: MessageTypeDefinition<_runtime_v1_RunPodSandboxResponse, _runtime_v1_RunPodSandboxResponse__Output>
      RuntimeCondition: MessageTypeDefinition<_runtime_v1_RuntimeCondition, _runtime_v1_RuntimeCondition__Output>
      RuntimeFeatures: MessageTypeDefinition<_runtime_v1_RuntimeFeatures, _runtime_v1_RuntimeFeatures__Output>
      RuntimeHandler: MessageTypeDefinition<_runtime_v1_RuntimeHandler, _runtime_v1_RuntimeHandler__Output>
      RuntimeHandlerFeatures: MessageTypeDefinition<_runtime_v1_RuntimeHandlerFeatures, _runtime_v1_RuntimeHandlerFeatures__Output>
      RuntimeService: SubtypeConstructor<typeof grpc.Client, _runtime_v1_RuntimeServiceClient> & { service: _runtime_v1_RuntimeServiceDefinition }
      RuntimeStatus: MessageTypeDefinition<_runtime_v1_RuntimeStatus, _runtime_v1_RuntimeStatus__Output>
      SELinuxOption: MessageTypeDefinition<_runtime_v1_SELinuxOption, _runtime_v1_SELinuxOption__Output>
      SecurityProfile: MessageTypeDefinition<_runtime_v1_SecurityProfile, _runtime_v1_SecurityProfile__Output>
      StartContainerRequest: MessageTypeDefinition<_runtime_v1_StartContainerRequest, _runtime_v1_StartContainerRequest__Output>
      StartContainerResponse: MessageTypeDefinition<_runtime_v1_StartContainerResponse, _runtime_v1_StartContainerResponse__Output>
      StatusRequest: MessageTypeDefinition<_runtime_v1_StatusRequest, _runtime_v1_StatusRequest__Output>
      StatusResponse: MessageTypeDefinition<_runtime_v1_StatusResponse, _runtime_v1_StatusResponse__Output>
      StopContainerRequest: MessageTypeDefinition<_runtime_v1_StopContainerRequest, _runtime_v1_StopContainerRequest__Output>
      StopContainerResponse: MessageTypeDefinition<_runtime_v1_StopContainerResponse, _runtime_v1_StopContainerResponse__Output>
      StopPodSandboxRequest: MessageTypeDefinition<_runtime_v1_StopPodSandboxRequest, _runtime_v1_StopPodSandboxRequest__Output>
      StopPodSandboxResponse: MessageTypeDefinition<_runtime_v1_StopPodSandboxResponse, _runtime_v1_StopPodSandboxResponse__Output>
      SupplementalGroupsPolicy: EnumTypeDefinition
      UInt64Value: MessageTypeDefinition<_runtime_v1_UInt64Value, _runtime_v1_UInt64Value__Output>
      VersionRequest: MessageTypeDefinition<_runtime_v1_VersionRequest, _runtime_v1_VersionRequest__Output>
      VersionResponse: MessageTypeDefinition<_runtime_v1_VersionResponse, _runtime_v1_VersionResponse__Output>
    }
  }
}

