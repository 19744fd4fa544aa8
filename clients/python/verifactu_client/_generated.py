# Generated from the service's OpenAPI document (GET /api/v1/openapi.json) by clients/python/generator.
# Do not edit: run `npm run client:generate` in the repository.
"""The operations and schemas of the VERI*FACTU registration API, as TypedDicts and one method per operation."""

from __future__ import annotations

import abc
from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "CancelInvoiceBody",
    "CancelInvoiceResult",
    "ClassifySaleBody",
    "ClassifySaleResult",
    "ClassifySaleResultBreakdownLine",
    "CorrectInvoiceBody",
    "CorrectInvoiceResult",
    "CreateRemissionBody",
    "CreateRemissionResult",
    "CreateSystemBody",
    "CreateSystemResult",
    "CreateTaxIdListBody",
    "CreateTaxIdListResult",
    "CreateTaxpayerBody",
    "CreateTaxpayerEventBody",
    "CreateTaxpayerEventResult",
    "CreateTaxpayerResult",
    "CreateTaxpayerResultWarningsItem",
    "CreateWebhookBody",
    "CreateWebhookResult",
    "ExportTaxpayerPeriodBody",
    "GetAccountResult",
    "GetAccountResultUsage",
    "GetChainResult",
    "GetHealthResponse",
    "GetHealthResponseChecks",
    "GetInvoiceResult",
    "GetInvoiceResultBreakdownItem",
    "GetInvoiceResultComputerSystem",
    "GetInvoiceResultIssuer",
    "GetInvoiceResultRecordsItem",
    "GetInvoiceResultRecordsItemFlags",
    "GetInvoiceResultStatusHistoryItem",
    "GetOpenApiDocumentResponse",
    "GetRemissionResult",
    "GetSystemResult",
    "GetTaxIdListResult",
    "GetTaxpayerEventResult",
    "GetTaxpayerResult",
    "GetWebhookResult",
    "ListInvoiceSubmissionsResult",
    "ListInvoiceSubmissionsResultItem",
    "ListInvoicesResponse",
    "ListInvoicesResponseDataItem",
    "ListRemissionsResult",
    "ListRemissionsResultItem",
    "ListRemissionsResultItemError",
    "ListRemissionsResultItemMessagesItem",
    "ListRemissionsResultItemMessagesItemProblemsItem",
    "ListRemissionsResultItemPeriod",
    "ListSandboxScenariosResult",
    "ListSandboxScenariosResultItem",
    "ListSandboxScenariosResultItemCodesItem",
    "ListSandboxScenariosResultItemExpect",
    "ListSandboxScenariosResultItemExpectSends",
    "ListSandboxScenariosResultItemParameter",
    "ListSystemsResponse",
    "ListSystemsResponseDataItem",
    "ListTaxIdChecksResult",
    "ListTaxIdChecksResultItem",
    "ListTaxIdListResultsResponse",
    "ListTaxIdListResultsResponseDataItem",
    "ListTaxpayerAlarmsResult",
    "ListTaxpayerAlarmsResultItem",
    "ListTaxpayerEventsResult",
    "ListTaxpayerEventsResultItem",
    "ListTaxpayersResponse",
    "ListTaxpayersResponseDataItem",
    "ListTaxpayersResponseDataItemCertificate",
    "ListTaxpayersResponseDataItemChain",
    "ListWebhookDeliveriesResult",
    "ListWebhookDeliveriesResultItem",
    "ListWebhooksResult",
    "ListWebhooksResultItem",
    "Problem",
    "ProblemErrorsItem",
    "ProblemErrorsItemExplanation",
    "RegenerateApiKeyBody",
    "RegenerateApiKeyResult",
    "RegisterAccountBody",
    "RegisterAccountResult",
    "RegisterInvoiceBatchBody",
    "RegisterInvoiceBatchBodyItem",
    "RegisterInvoiceBatchResponse",
    "RegisterInvoiceBatchResponseResultsItem1",
    "RegisterInvoiceBatchResponseResultsItem2",
    "RegisterInvoiceBody",
    "RegisterInvoiceResponse",
    "RegisterInvoiceResponseData",
    "RegisterInvoiceResponseDataSignedRecord",
    "RegisterInvoiceResponseRecipientCheckItem",
    "ResendInvoiceResult",
    "TestWebhookResult",
    "UpdateAccountSettingsBody",
    "UpdateAccountSettingsResult",
    "UpdateSystemBody",
    "UpdateSystemResult",
    "UpdateTaxpayerBody",
    "UpdateTaxpayerResult",
    "ValidateInvoiceBody",
    "ValidateInvoiceBodyBreakdownItem",
    "ValidateInvoiceBodyCorrectedInvoicesItem",
    "ValidateInvoiceBodyRecipient1",
    "ValidateInvoiceBodyRecipient2",
    "ValidateInvoiceResult",
    "VerifyChainResult",
    "VerifyChainResultBrokenLink",
    "VerifyChainResultSignatures",
    "VerifyInvoiceRecordResult",
    "VerifyInvoiceRecordResultHash",
    "VerifyInvoiceRecordResultLink",
    "VerifyInvoiceRecordResultSignature",
    "VerifyInvoiceRecordResultSignatureSigner",
    "VerifyTaxIdsBody",
    "VerifyTaxIdsBodyTaxIdsItem2",
    "VerifyTaxIdsResult",
    "VerifyTaxpayerChainBody",
    "VerifyTaxpayerChainResult",
    "VerifyTaxpayerChainResultAnomaliesItem",
    "VerifyTaxpayerChainResultLinksItem",
    "Operations",
]


class ProblemErrorsItemExplanation(TypedDict):
    es: str
    en: str


class ProblemErrorsItem(TypedDict):
    field: str
    code: str
    message: str
    authority_code: NotRequired[int]
    explanation: NotRequired[ProblemErrorsItemExplanation]


class Problem(TypedDict):
    type: str
    title: str
    status: int
    detail: str
    code: str
    request_id: str
    errors: NotRequired[list[ProblemErrorsItem]]
    warnings: NotRequired[list[ProblemErrorsItem]]


class GetHealthResponseChecks(TypedDict):
    database: Literal["ok", "unavailable"]
    redis: Literal["ok", "unavailable"]


class GetHealthResponse(TypedDict):
    status: Literal["ok", "unavailable"]
    checks: GetHealthResponseChecks


GetOpenApiDocumentResponse = dict[str, Any]


class RegisterAccountBody(TypedDict):
    name: str
    email: str
    password: str


class RegisterAccountResult(TypedDict):
    api_key: str
    api_key_hint: str
    name: str
    email: str
    plan: str
    monthly_quota: int | None


class RegenerateApiKeyBody(TypedDict):
    email: str
    password: str


RegenerateApiKeyResult = RegisterAccountResult


class GetAccountResultUsage(TypedDict):
    period: str
    used: int
    remaining: int | None
    resets_at: str


class GetAccountResult(TypedDict):
    id: str
    name: str
    email: str
    plan: str
    monthly_quota: int | None
    usage: GetAccountResultUsage
    api_key_hint: str
    api_key_created_at: str
    created_at: str
    recipient_check: Literal["warn", "refuse"] | None


class UpdateAccountSettingsBody(TypedDict):
    recipient_check: Literal["warn", "refuse"] | None


UpdateAccountSettingsResult = GetAccountResult


class ListTaxpayersResponseDataItemCertificate(TypedDict):
    subject: str | None
    nif: str | None
    not_before: str
    not_after: str
    expired: bool
    expires_in_days: int
    source: str


class ListTaxpayersResponseDataItemChain(TypedDict):
    total_records: int
    last_hash: str | None


class ListTaxpayersResponseDataItem(TypedDict):
    id: str
    nif: str
    name: str
    is_production: bool
    environment: Literal["sandbox", "production"]
    signing_mode: Literal["own_certificate", "social_collaborator"]
    has_certificate: bool
    certificate_path: str | None
    certificate: ListTaxpayersResponseDataItemCertificate
    chain: ListTaxpayersResponseDataItemChain
    operating_mode: Literal["verifactu", "no_verifactu"]
    verifactu_ends_on: str | None
    integrity_alarm: bool
    created_at: str
    updated_at: str


class ListTaxpayersResponse(TypedDict):
    data: list[ListTaxpayersResponseDataItem]
    next_cursor: str | None


class CreateTaxpayerBody(TypedDict):
    nif: str
    name: str
    is_production: NotRequired[bool]
    certificate_path: NotRequired[str | None]
    certificate_p12_base64: NotRequired[str | None]
    certificate_password: NotRequired[str]
    operating_mode: NotRequired[Literal["verifactu", "no_verifactu"]]


class CreateTaxpayerResultWarningsItem(TypedDict):
    code: str
    message: str


class CreateTaxpayerResult(TypedDict):
    id: str
    nif: str
    name: str
    is_production: bool
    environment: Literal["sandbox", "production"]
    signing_mode: Literal["own_certificate", "social_collaborator"]
    has_certificate: bool
    certificate_path: str | None
    certificate: ListTaxpayersResponseDataItemCertificate
    chain: ListTaxpayersResponseDataItemChain
    operating_mode: Literal["verifactu", "no_verifactu"]
    verifactu_ends_on: str | None
    integrity_alarm: bool
    created_at: str
    updated_at: str
    warnings: list[CreateTaxpayerResultWarningsItem]


GetTaxpayerResult = ListTaxpayersResponseDataItem


class UpdateTaxpayerBody(TypedDict):
    nif: NotRequired[str]
    name: NotRequired[str]
    is_production: NotRequired[bool]
    certificate_path: NotRequired[str | None]
    certificate_p12_base64: NotRequired[str | None]
    certificate_password: NotRequired[str]
    operating_mode: NotRequired[Literal["verifactu", "no_verifactu"]]


UpdateTaxpayerResult = CreateTaxpayerResult


class ListTaxpayerEventsResultItem(TypedDict):
    id: str
    system_id: str
    seq: int
    type: Literal["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "90"]
    generated_at: str
    hash: str
    previous_hash: str | None
    period_start: str | None
    xml_url: str


ListTaxpayerEventsResult = list[ListTaxpayerEventsResultItem]


class CreateTaxpayerEventBody(TypedDict):
    system_id: str
    description: str


CreateTaxpayerEventResult = ListTaxpayerEventsResultItem


GetTaxpayerEventResult = ListTaxpayerEventsResultItem


class VerifyTaxpayerChainBody(TypedDict):
    subject: Literal["records", "events"]
    system_id: NotRequired[list[Any] | bool | float | dict[str, Any] | str | None]
    from_seq: NotRequired[int]
    to_seq: NotRequired[int]


class VerifyTaxpayerChainResultLinksItem(TypedDict):
    seq: int
    id: str
    generated_at: str
    hash: str
    hash_ok: bool
    signature_ok: bool
    link_ok: bool
    date_ok: bool


class VerifyTaxpayerChainResultAnomaliesItem(TypedDict):
    seq: int
    id: str
    kind: Literal["hash", "signature", "link", "date"]
    anomaly_type: str
    detail: str


class VerifyTaxpayerChainResult(TypedDict):
    subject: Literal["records", "events"]
    from_seq: int
    to_seq: int
    checked: int
    restored: bool
    links: list[VerifyTaxpayerChainResultLinksItem]
    anomalies: list[VerifyTaxpayerChainResultAnomaliesItem]


class ListTaxpayerAlarmsResultItem(TypedDict):
    id: str
    subject: Literal["records", "events"]
    anomaly: Literal["hash", "signature", "time", "chain"]
    record_id: str | None
    detail: str | None
    raised_at: str


ListTaxpayerAlarmsResult = list[ListTaxpayerAlarmsResultItem]


ExportTaxpayerPeriodBody = TypedDict(
    "ExportTaxpayerPeriodBody",
    {
        "subject": Literal["records", "events"],
        "system_id": NotRequired[list[Any] | bool | float | dict[str, Any] | str | None],
        "from": str,
        "to": str,
    },
)


class ListSystemsResponseDataItem(TypedDict):
    id: str
    vendor_name: str
    vendor_nif: str
    name: str
    version: str
    installation_number: str
    only_supports_verifactu: bool
    system_code: str
    supports_multiple_taxpayers: bool
    sole_taxpayer_id: str | None
    created_at: str
    updated_at: str


class ListSystemsResponse(TypedDict):
    data: list[ListSystemsResponseDataItem]
    next_cursor: str | None


class CreateSystemBody(TypedDict):
    vendor_name: str
    vendor_nif: str
    name: str
    version: str
    installation_number: str
    only_supports_verifactu: NotRequired[bool]
    system_code: NotRequired[str]
    supports_multiple_taxpayers: NotRequired[bool]


CreateSystemResult = ListSystemsResponseDataItem


GetSystemResult = ListSystemsResponseDataItem


class UpdateSystemBody(TypedDict):
    vendor_name: NotRequired[str]
    vendor_nif: NotRequired[str]
    name: NotRequired[str]
    version: NotRequired[str]
    installation_number: NotRequired[str]
    only_supports_verifactu: NotRequired[bool]
    system_code: NotRequired[str]
    supports_multiple_taxpayers: NotRequired[bool]


UpdateSystemResult = ListSystemsResponseDataItem


class ValidateInvoiceBodyRecipient1(TypedDict):
    name: str
    nif: str


class ValidateInvoiceBodyRecipient2(TypedDict):
    name: str
    country: NotRequired[str]
    id_type: str
    id: str


class ValidateInvoiceBodyCorrectedInvoicesItem(TypedDict):
    invoice_number: str
    invoice_date: str


class ValidateInvoiceBodyBreakdownItem(TypedDict):
    tax_type: NotRequired[str | None]
    regime_type: NotRequired[str | None]
    operation_type: NotRequired[str | None]
    base_amount: float | str
    cost_base_amount: NotRequired[float | str | None]
    tax_rate: NotRequired[float | str | None]
    tax_amount: NotRequired[float | str | None]
    surcharge_rate: NotRequired[float | str | None]
    surcharge_amount: NotRequired[float | str | None]


class ValidateInvoiceBody(TypedDict):
    taxpayer_id: str
    computer_system_id: str
    invoice_number: str
    invoice_date: str
    invoice_type: Literal["F1", "F2", "F3", "R1", "R2", "R3", "R4", "R5"]
    description: str
    operation_date: NotRequired[str | None]
    recipient: NotRequired[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None]
    recipients: NotRequired[list[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2] | None]
    issued_by: NotRequired[Literal["recipient", "third_party"] | None]
    third_party: NotRequired[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None]
    simplified_art_72_73: NotRequired[bool | None]
    without_recipient_art_61d: NotRequired[bool | None]
    coupon: NotRequired[bool | None]
    rectification_type: NotRequired[Literal["S", "I"] | None]
    rectified_base_amount: NotRequired[float | str | None]
    rectified_tax_amount: NotRequired[float | str | None]
    rectified_surcharge_amount: NotRequired[float | str | None]
    corrected_invoices: NotRequired[list[ValidateInvoiceBodyCorrectedInvoicesItem] | None]
    substituted_invoices: NotRequired[list[ValidateInvoiceBodyCorrectedInvoicesItem] | None]
    breakdown: list[ValidateInvoiceBodyBreakdownItem]
    total_amount: float | str
    total_tax_amount: float | str


class ValidateInvoiceResult(TypedDict):
    valid: Literal[True]
    warnings: list[ProblemErrorsItem]


class ClassifySaleBody(TypedDict):
    issuer_territory: NotRequired[Literal["peninsula", "canarias", "ceuta", "melilla"]]
    recipient_country: NotRequired[str | None]
    recipient_vat: NotRequired[str | None]
    base_amount: NotRequired[float | str | None]
    supply_type: NotRequired[Literal["goods", "services"] | None]


class ClassifySaleResultBreakdownLine(TypedDict):
    tax_type: str
    regime_type: str
    operation_type: str
    base_amount: str | None
    tax_rate: NotRequired[str]
    tax_amount: NotRequired[str | None]


class ClassifySaleResult(TypedDict):
    operation_class: str
    operation_type: str
    regime_type: str
    tax_type: str
    tax_rate: float
    notes: str
    breakdown_line: ClassifySaleResultBreakdownLine


class ListInvoicesResponseDataItem(TypedDict):
    id: str
    taxpayer_id: str
    computer_system_id: str
    record_type: Literal["registration", "correction", "cancellation"]
    invoice_number: str
    invoice_date: str
    invoice_type: str
    kind: Literal["normal", "corrective"]
    total_amount: str
    total_tax_amount: str
    chain_position: int
    hash: str
    generated_at: str
    qr_url: str
    authority_status: Literal["queued", "sent", "accepted", "accepted_with_warnings", "rejected", "error", "kept"]
    authority_code: int | None
    cancelled: bool
    created_at: str
    recipient_name: str | None
    recipient_nif: str | None
    base_amount: str | None


class ListInvoicesResponse(TypedDict):
    data: list[ListInvoicesResponseDataItem]
    next_cursor: str | None
    total: int
    total_exact: bool


RegisterInvoiceBody = ValidateInvoiceBody


class RegisterInvoiceResponseDataSignedRecord(TypedDict):
    url: str
    xml_base64: str


class RegisterInvoiceResponseData(TypedDict):
    id: str
    invoice_number: str
    hash: str
    qr_url: str
    authority_status: Literal["queued", "kept"]
    operating_mode: Literal["verifactu", "no_verifactu"]
    signed_record: RegisterInvoiceResponseDataSignedRecord
    record_type: Literal["registration"]
    taxpayer_id: str
    chain_position: int
    previous_hash: str | None
    generated_at: str
    warnings: list[ProblemErrorsItem]


class RegisterInvoiceResponseRecipientCheckItem(TypedDict):
    nif: NotRequired[str]
    vat_number: NotRequired[str]
    result: Literal["valid", "invalid", "unknown"]
    detail: Literal["identified", "similar", "not_identified", "deregistered", "revoked", "not_processed"]
    census_name: NotRequired[str]
    fault_code: NotRequired[str]
    request_identifier: NotRequired[str]
    trader_name: NotRequired[str]
    source: Literal["aeat_census", "cache", "vies"]
    checked_at: str


class RegisterInvoiceResponse(TypedDict):
    message: NotRequired[str]
    data: RegisterInvoiceResponseData
    recipient_check: NotRequired[list[RegisterInvoiceResponseRecipientCheckItem]]


class GetInvoiceResultBreakdownItem(TypedDict):
    tax_type: str
    regime_type: str | None
    operation_type: str
    base_amount: str
    cost_base_amount: str | None
    tax_rate: str | None
    tax_amount: str | None
    surcharge_rate: str | None
    surcharge_amount: str | None


class GetInvoiceResultIssuer(TypedDict):
    nif: str
    name: str


class GetInvoiceResultComputerSystem(TypedDict):
    pass


class GetInvoiceResultStatusHistoryItem(TypedDict):
    status: Literal["queued", "sent", "accepted", "accepted_with_warnings", "rejected", "error", "kept"]
    at: str
    code: int | None
    message: str | None
    record_id: str


class GetInvoiceResultRecordsItemFlags(TypedDict):
    subsanacion: bool
    rechazo_previo: Literal["S", "X"] | None
    sin_registro_previo: bool


class GetInvoiceResultRecordsItem(TypedDict):
    id: str
    invoice_id: str
    record_type: Literal["registration", "correction", "cancellation"]
    flags: GetInvoiceResultRecordsItemFlags
    hash: str
    previous_hash: str | None
    chain_position: int
    generated_at: str
    authority_status: Literal["queued", "sent", "accepted", "accepted_with_warnings", "rejected", "error", "kept"]
    authority_code: int | None
    authority_message: str | None
    authority_csv: str | None
    cancellation_reason: str | None
    warnings: list[ProblemErrorsItem]
    sandbox_scenario: str | None
    xml_url: str


class GetInvoiceResult(TypedDict):
    id: str
    taxpayer_id: str
    computer_system_id: str
    record_type: Literal["registration", "correction", "cancellation"]
    invoice_number: str
    invoice_date: str
    invoice_type: str
    kind: Literal["normal", "corrective"]
    total_amount: str
    total_tax_amount: str
    chain_position: int
    hash: str
    generated_at: str
    qr_url: str
    authority_status: Literal["queued", "sent", "accepted", "accepted_with_warnings", "rejected", "error", "kept"]
    authority_code: int | None
    cancelled: bool
    created_at: str
    description: str
    operation_date: str | None
    recipient: ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None
    recipients: list[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2]
    issued_by: Literal["recipient", "third_party"] | None
    third_party: ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None
    simplified_art_72_73: bool
    without_recipient_art_61d: bool
    coupon: bool
    rectification_type: Literal["S", "I"] | None
    rectified_base_amount: str | None
    rectified_tax_amount: str | None
    rectified_surcharge_amount: str | None
    corrected_invoices: list[ValidateInvoiceBodyCorrectedInvoicesItem]
    substituted_invoices: list[ValidateInvoiceBodyCorrectedInvoicesItem]
    breakdown: list[GetInvoiceResultBreakdownItem]
    issuer: GetInvoiceResultIssuer
    computer_system: GetInvoiceResultComputerSystem
    environment: Literal["sandbox", "production"]
    sandbox_scenario: str | None
    previous_hash: str | None
    previous_invoice_id: str | None
    authority_message: str | None
    next_attempt_at: str | None
    authority_csv: str | None
    warnings: list[ProblemErrorsItem]
    recipient_check: NotRequired[list[RegisterInvoiceResponseRecipientCheckItem]]
    status_history: list[GetInvoiceResultStatusHistoryItem]
    records: list[GetInvoiceResultRecordsItem]
    updated_at: str


CorrectInvoiceBody = ValidateInvoiceBody


CorrectInvoiceResult = GetInvoiceResultRecordsItem


class CancelInvoiceBody(TypedDict):
    reason: NotRequired[str]


CancelInvoiceResult = GetInvoiceResultRecordsItem


class ListInvoiceSubmissionsResultItem(TypedDict):
    id: str
    started_at: str
    finished_at: str | None
    outcome: str | None
    endpoint: str | None
    certificate_mode: str | None
    incident: bool | None
    http_status: int | None
    fault_code: str | None
    error_message: str | None
    csv: str | None
    request_xml: str | None
    response_xml: str | None


ListInvoiceSubmissionsResult = list[ListInvoiceSubmissionsResultItem]


class VerifyInvoiceRecordResultHash(TypedDict):
    valid: bool
    stored: str
    recomputed: str


class VerifyInvoiceRecordResultLink(TypedDict):
    valid: bool
    problem: str | None


class VerifyInvoiceRecordResultSignatureSigner(TypedDict):
    subject: str
    issuer: str
    serial_number: str
    not_before: str
    not_after: str


class VerifyInvoiceRecordResultSignature(TypedDict):
    status: Literal["valid", "invalid", "missing"]
    problems: list[str]
    signing_time: str | None
    signer: VerifyInvoiceRecordResultSignatureSigner


class VerifyInvoiceRecordResult(TypedDict):
    record_id: str
    chain_seq: int
    valid: bool
    hash: VerifyInvoiceRecordResultHash
    link: VerifyInvoiceRecordResultLink
    signature: VerifyInvoiceRecordResultSignature


class RegisterInvoiceBatchBodyItem(TypedDict):
    taxpayer_id: str
    computer_system_id: str
    invoice_number: str
    invoice_date: str
    invoice_type: Literal["F1", "F2", "F3", "R1", "R2", "R3", "R4", "R5"]
    description: str
    operation_date: NotRequired[str | None]
    recipient: NotRequired[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None]
    recipients: NotRequired[list[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2] | None]
    issued_by: NotRequired[Literal["recipient", "third_party"] | None]
    third_party: NotRequired[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None]
    simplified_art_72_73: NotRequired[bool | None]
    without_recipient_art_61d: NotRequired[bool | None]
    coupon: NotRequired[bool | None]
    rectification_type: NotRequired[Literal["S", "I"] | None]
    rectified_base_amount: NotRequired[float | str | None]
    rectified_tax_amount: NotRequired[float | str | None]
    rectified_surcharge_amount: NotRequired[float | str | None]
    corrected_invoices: NotRequired[list[ValidateInvoiceBodyCorrectedInvoicesItem] | None]
    substituted_invoices: NotRequired[list[ValidateInvoiceBodyCorrectedInvoicesItem] | None]
    breakdown: list[ValidateInvoiceBodyBreakdownItem]
    total_amount: float | str
    total_tax_amount: float | str
    sandbox_scenario: NotRequired[str]


RegisterInvoiceBatchBody = list[RegisterInvoiceBatchBodyItem]


class RegisterInvoiceBatchResponseResultsItem1(TypedDict):
    index: int
    status: Literal[201]
    data: RegisterInvoiceResponseData
    recipient_check: NotRequired[list[RegisterInvoiceResponseRecipientCheckItem]]


class RegisterInvoiceBatchResponseResultsItem2(TypedDict):
    index: int
    status: int
    problem: Problem
    recipient_check: NotRequired[list[RegisterInvoiceResponseRecipientCheckItem]]


class RegisterInvoiceBatchResponse(TypedDict):
    message: str
    registered: int
    failed: int
    results: list[RegisterInvoiceBatchResponseResultsItem1 | RegisterInvoiceBatchResponseResultsItem2]


class ResendInvoiceResult(TypedDict):
    id: str
    taxpayer_id: str
    computer_system_id: str
    record_type: Literal["registration", "correction", "cancellation"]
    invoice_number: str
    invoice_date: str
    invoice_type: str
    kind: Literal["normal", "corrective"]
    total_amount: str
    total_tax_amount: str
    chain_position: int
    hash: str
    generated_at: str
    qr_url: str
    authority_status: Literal["queued", "sent", "accepted", "accepted_with_warnings", "rejected", "error", "kept"]
    authority_code: int | None
    cancelled: bool
    created_at: str
    description: str
    operation_date: str | None
    recipient: ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None
    recipients: list[ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2]
    issued_by: Literal["recipient", "third_party"] | None
    third_party: ValidateInvoiceBodyRecipient1 | ValidateInvoiceBodyRecipient2 | None
    simplified_art_72_73: bool
    without_recipient_art_61d: bool
    coupon: bool
    rectification_type: Literal["S", "I"] | None
    rectified_base_amount: str | None
    rectified_tax_amount: str | None
    rectified_surcharge_amount: str | None
    corrected_invoices: list[ValidateInvoiceBodyCorrectedInvoicesItem]
    substituted_invoices: list[ValidateInvoiceBodyCorrectedInvoicesItem]
    breakdown: list[GetInvoiceResultBreakdownItem]
    issuer: GetInvoiceResultIssuer
    computer_system: GetInvoiceResultComputerSystem
    environment: Literal["sandbox", "production"]
    sandbox_scenario: str | None
    previous_hash: str | None
    previous_invoice_id: str | None
    authority_message: str | None
    next_attempt_at: str | None
    authority_csv: str | None
    warnings: list[ProblemErrorsItem]
    recipient_check: NotRequired[list[RegisterInvoiceResponseRecipientCheckItem]]
    status_history: list[GetInvoiceResultStatusHistoryItem]
    records: list[GetInvoiceResultRecordsItem]
    updated_at: str
    resumed_records: int


class GetChainResult(TypedDict):
    nif: str
    environment: Literal["sandbox", "production"]
    current_environment: Literal["sandbox", "production"]
    last_hash: str | None
    total_records: int
    last_record_at: str | None


class VerifyChainResultBrokenLink(TypedDict):
    position: int
    record_id: str | None
    invoice_number: str
    problem: str


class VerifyChainResultSignatures(TypedDict):
    valid: int
    invalid: int
    missing: int


VerifyChainResult = TypedDict(
    "VerifyChainResult",
    {
        "valid": bool,
        "from": int,
        "verified": int,
        "broken_link": VerifyChainResultBrokenLink,
        "signatures": VerifyChainResultSignatures,
        "invalid_signatures": list[VerifyChainResultBrokenLink],
    },
)


class ListWebhooksResultItem(TypedDict):
    id: str
    url: str
    events: list[Literal["invoice.registered", "invoice.status_changed", "invoice.accepted", "invoice.rejected", "invoice.error", "invoice.cancelled", "tax_id_list.completed"]]
    created_at: str


ListWebhooksResult = list[ListWebhooksResultItem]


class CreateWebhookBody(TypedDict):
    url: str
    events: list[Literal["invoice.registered", "invoice.status_changed", "invoice.accepted", "invoice.rejected", "invoice.error", "invoice.cancelled", "tax_id_list.completed"]]


class CreateWebhookResult(TypedDict):
    id: str
    url: str
    events: list[Literal["invoice.registered", "invoice.status_changed", "invoice.accepted", "invoice.rejected", "invoice.error", "invoice.cancelled", "tax_id_list.completed"]]
    created_at: str
    secret: str


GetWebhookResult = ListWebhooksResultItem


class ListWebhookDeliveriesResultItem(TypedDict):
    id: str
    event_type: str
    invoice_id: str | None
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    last_response_code: int | None
    last_error: str | None
    next_attempt_at: str | None
    delivered_at: str | None
    created_at: str


ListWebhookDeliveriesResult = list[ListWebhookDeliveriesResultItem]


TestWebhookResult = ListWebhookDeliveriesResultItem


class VerifyTaxIdsBodyTaxIdsItem2(TypedDict):
    vat_number: str


class VerifyTaxIdsBody(TypedDict):
    nif: NotRequired[str]
    name: NotRequired[str]
    vat_number: NotRequired[str]
    tax_ids: NotRequired[list[GetInvoiceResultIssuer | VerifyTaxIdsBodyTaxIdsItem2]]
    max_age: NotRequired[int]
    taxpayer_id: NotRequired[str]


VerifyTaxIdsResult = RegisterInvoiceResponseRecipientCheckItem | list[RegisterInvoiceResponseRecipientCheckItem]


class ListTaxIdChecksResultItem(TypedDict):
    tax_id: str
    result: Literal["valid", "invalid", "unknown"]
    detail: Literal["identified", "similar", "not_identified", "deregistered", "revoked", "not_processed"]
    source: Literal["aeat_census", "cache", "vies"]
    request_digest: str
    request_identifier: NotRequired[str]
    fault_code: NotRequired[str]
    checked_at: str


ListTaxIdChecksResult = list[ListTaxIdChecksResultItem]


class ListSandboxScenariosResultItemParameter(TypedDict):
    kind: Literal["code", "seconds"]
    levels: NotRequired[list[str]]
    min: NotRequired[int]
    max: NotRequired[int]


class ListSandboxScenariosResultItemExpectSends(TypedDict):
    min: int
    max: int | None


class ListSandboxScenariosResultItemExpect(TypedDict):
    final_status: Literal["queued", "sent", "accepted", "accepted_with_warnings", "rejected", "error", "kept"]
    authority_code: int | None
    sends: ListSandboxScenariosResultItemExpectSends
    webhooks: list[Literal["invoice.registered", "invoice.status_changed", "invoice.accepted", "invoice.rejected", "invoice.error", "invoice.cancelled", "tax_id_list.completed"]]


class ListSandboxScenariosResultItemCodesItem(TypedDict):
    final_status: Literal["queued", "sent", "accepted", "accepted_with_warnings", "rejected", "error", "kept"]
    authority_code: int | None
    sends: ListSandboxScenariosResultItemExpectSends
    webhooks: list[Literal["invoice.registered", "invoice.status_changed", "invoice.accepted", "invoice.rejected", "invoice.error", "invoice.cancelled", "tax_id_list.completed"]]
    code: int
    level: str


class ListSandboxScenariosResultItem(TypedDict):
    name: Literal["accepted", "accepted_with_errors", "rejected", "message_refused", "reply_lost", "stored_then_failed", "answered_after", "authority_down", "duplicate_without_detail"]
    form: str
    example: str
    parameter: NotRequired[ListSandboxScenariosResultItemParameter]
    expect: ListSandboxScenariosResultItemExpect
    codes: NotRequired[list[ListSandboxScenariosResultItemCodesItem]]
    explanation: ProblemErrorsItemExplanation


ListSandboxScenariosResult = list[ListSandboxScenariosResultItem]


ListRemissionsResultItemPeriod = TypedDict(
    "ListRemissionsResultItemPeriod",
    {
        "from": str,
        "to": str,
    },
)


class ListRemissionsResultItemError(TypedDict):
    code: int | None
    message: str
    explanation: NotRequired[ProblemErrorsItemExplanation]


class ListRemissionsResultItemMessagesItemProblemsItem(TypedDict):
    invoice_number: str
    invoice_date: str
    state: Literal["AceptadoConErrores", "Incorrecto"]
    code: NotRequired[int]
    description: NotRequired[str]


class ListRemissionsResultItemMessagesItem(TypedDict):
    seq: int
    record_count: int
    last: bool
    status: Literal["waiting", "in_flight", "answered", "refused"]
    attempts: int
    csv: str | None
    send_state: str | None
    accepted: int | None
    accepted_with_errors: int | None
    already_held: int | None
    rejected: int | None
    problems: list[ListRemissionsResultItemMessagesItemProblemsItem]
    last_error: str | None
    sent_at: str | None
    answered_at: str | None


class ListRemissionsResultItem(TypedDict):
    id: str
    taxpayer_id: str
    environment: Literal["sandbox", "production"]
    requirement_reference: str
    period: ListRemissionsResultItemPeriod
    status: Literal["sending", "completed", "failed"]
    record_count: int
    message_count: int
    messages_answered: int
    next_send_at: str | None
    error: ListRemissionsResultItemError
    created_at: str
    finished_at: str | None
    messages: NotRequired[list[ListRemissionsResultItemMessagesItem]]


ListRemissionsResult = list[ListRemissionsResultItem]


class CreateRemissionBody(TypedDict):
    requirement_reference: str
    period: ListRemissionsResultItemPeriod


CreateRemissionResult = ListRemissionsResultItem


GetRemissionResult = ListRemissionsResultItem


class CreateTaxIdListBody(TypedDict):
    tax_ids: list[GetInvoiceResultIssuer | VerifyTaxIdsBodyTaxIdsItem2]
    max_age: NotRequired[int]
    taxpayer_id: NotRequired[str]


class CreateTaxIdListResult(TypedDict):
    id: str
    status: Literal["pending", "done"]
    total: int
    answered: int
    max_age: int
    taxpayer_id: str | None
    created_at: str
    finished_at: str | None


GetTaxIdListResult = CreateTaxIdListResult


class ListTaxIdListResultsResponseDataItem(TypedDict):
    nif: NotRequired[str]
    vat_number: NotRequired[str]
    census_name: NotRequired[str]
    fault_code: NotRequired[str]
    request_identifier: NotRequired[str]
    trader_name: NotRequired[str]
    line: int
    result: NotRequired[Literal["valid", "invalid", "unknown"]]
    detail: NotRequired[str]
    source: NotRequired[str]
    checked_at: NotRequired[str]


class ListTaxIdListResultsResponse(TypedDict):
    data: list[ListTaxIdListResultsResponseDataItem]
    next_cursor: str | None


class Operations(abc.ABC):
    """One method per operation of the document, named after its operationId; VerifactuClient makes the calls."""

    @abc.abstractmethod
    def _call(
        self,
        method: str,
        path: str,
        *,
        path_params: dict[str, str] | None = None,
        query: dict[str, Any] | None = None,
        body: Any = None,
        headers: dict[str, str | None] | None = None,
        expect: Literal["json", "text", "bytes", "none"] = "json",
        unwrap: str | None = None,
    ) -> Any:
        """Sends one request (with retries) and returns its answer read as `expect` says, or raises its problem."""

    def get_health(
        self,
    ) -> GetHealthResponse:
        """Whether PostgreSQL and Redis answer (GET /health)."""
        return self._call(
            "GET",
            "/health",
            expect="json",
        )

    def get_open_api_document(
        self,
    ) -> GetOpenApiDocumentResponse:
        """This OpenAPI 3.1 document (GET /openapi.json)."""
        return self._call(
            "GET",
            "/openapi.json",
            expect="json",
        )

    def register_account(
        self,
        body: RegisterAccountBody,
    ) -> RegisterAccountResult:
        """Create an account and get its API key (POST /auth/register)."""
        return self._call(
            "POST",
            "/auth/register",
            body=body,
            expect="json",
            unwrap="data",
        )

    def regenerate_api_key(
        self,
        body: RegenerateApiKeyBody,
    ) -> RegenerateApiKeyResult:
        """Replace the API key (with the current key, or with email and password) (POST /auth/regenerate-key)."""
        return self._call(
            "POST",
            "/auth/regenerate-key",
            body=body,
            expect="json",
            unwrap="data",
        )

    def get_account(
        self,
    ) -> GetAccountResult:
        """Your account, plan and this month’s usage (GET /account)."""
        return self._call(
            "GET",
            "/account",
            expect="json",
            unwrap="data",
        )

    def update_account_settings(
        self,
        body: UpdateAccountSettingsBody,
        *,
        idempotency_key: str | None = None,
    ) -> UpdateAccountSettingsResult:
        """Your account’s settings: the default recipient check of registrations (PUT /account/settings)."""
        return self._call(
            "PUT",
            "/account/settings",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def list_taxpayers(
        self,
        *,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> ListTaxpayersResponse:
        """List taxpayers (GET /taxpayers)."""
        return self._call(
            "GET",
            "/taxpayers",
            query={"limit": limit, "cursor": cursor},
            expect="json",
        )

    def create_taxpayer(
        self,
        body: CreateTaxpayerBody,
        *,
        idempotency_key: str | None = None,
    ) -> CreateTaxpayerResult:
        """Add a taxpayer (obligado emisor), with or without its certificate (POST /taxpayers)."""
        return self._call(
            "POST",
            "/taxpayers",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def get_taxpayer(
        self,
        id: str,
    ) -> GetTaxpayerResult:
        """One taxpayer (GET /taxpayers/{id})."""
        return self._call(
            "GET",
            "/taxpayers/{id}",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def update_taxpayer(
        self,
        id: str,
        body: UpdateTaxpayerBody,
        *,
        idempotency_key: str | None = None,
    ) -> UpdateTaxpayerResult:
        """Change a taxpayer (only the fields given) (PUT /taxpayers/{id})."""
        return self._call(
            "PUT",
            "/taxpayers/{id}",
            path_params={"id": id},
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def delete_taxpayer(
        self,
        id: str,
    ) -> None:
        """Delete a taxpayer without invoices (DELETE /taxpayers/{id})."""
        return self._call(
            "DELETE",
            "/taxpayers/{id}",
            path_params={"id": id},
            expect="none",
        )

    def list_taxpayer_events(
        self,
        id: str,
        *,
        system_id: str | None = None,
        type: Literal["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "90"] | None = None,
        from_: str | None = None,
        to: str | None = None,
        after_seq: int | None = None,
        order: Literal["asc", "desc"] | None = None,
        limit: int | None = None,
    ) -> ListTaxpayerEventsResult:
        """The taxpayer’s event log (NO VERI*FACTU), walked forwards or backwards (GET /taxpayers/{id}/events)."""
        return self._call(
            "GET",
            "/taxpayers/{id}/events",
            path_params={"id": id},
            query={
                "system_id": system_id,
                "type": type,
                "from": from_,
                "to": to,
                "after_seq": after_seq,
                "order": order,
                "limit": limit,
            },
            expect="json",
            unwrap="data",
        )

    def create_taxpayer_event(
        self,
        id: str,
        body: CreateTaxpayerEventBody,
        *,
        idempotency_key: str | None = None,
    ) -> CreateTaxpayerEventResult:
        """Record an event of your own (90, other) in a system’s chain of events (POST /taxpayers/{id}/events)."""
        return self._call(
            "POST",
            "/taxpayers/{id}/events",
            path_params={"id": id},
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def get_taxpayer_event(
        self,
        id: str,
        event_id: str,
    ) -> GetTaxpayerEventResult:
        """One event (GET /taxpayers/{id}/events/{eventId})."""
        return self._call(
            "GET",
            "/taxpayers/{id}/events/{eventId}",
            path_params={"id": id, "eventId": event_id},
            expect="json",
            unwrap="data",
        )

    def get_taxpayer_event_xml(
        self,
        id: str,
        event_id: str,
    ) -> str:
        """One event as its signed RegistroEvento (EventosSIF.xsd), as generated (GET /taxpayers/{id}/events/{eventId}/xml)."""
        return self._call(
            "GET",
            "/taxpayers/{id}/events/{eventId}/xml",
            path_params={"id": id, "eventId": event_id},
            headers={"Accept": "application/xml"},
            expect="text",
        )

    def verify_taxpayer_chain(
        self,
        id: str,
        body: VerifyTaxpayerChainBody,
        *,
        idempotency_key: str | None = None,
    ) -> VerifyTaxpayerChainResult:
        """Check the records’ chain, or a system’s chain of events, whole or a range, link by link (POST /taxpayers/{id}/checks)."""
        return self._call(
            "POST",
            "/taxpayers/{id}/checks",
            path_params={"id": id},
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def list_taxpayer_alarms(
        self,
        id: str,
    ) -> ListTaxpayerAlarmsResult:
        """The taxpayer’s integrity alarms not cleared (GET /taxpayers/{id}/alarms)."""
        return self._call(
            "GET",
            "/taxpayers/{id}/alarms",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def export_taxpayer_period(
        self,
        id: str,
        body: ExportTaxpayerPeriodBody,
        *,
        idempotency_key: str | None = None,
    ) -> bytes:
        """Export a period’s records, or a system’s events, as a faithful copy (POST /taxpayers/{id}/exports)."""
        return self._call(
            "POST",
            "/taxpayers/{id}/exports",
            path_params={"id": id},
            body=body,
            headers={"Accept": "application/zip", "Idempotency-Key": idempotency_key},
            expect="bytes",
        )

    def list_systems(
        self,
        *,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> ListSystemsResponse:
        """List computer systems (GET /systems)."""
        return self._call(
            "GET",
            "/systems",
            query={"limit": limit, "cursor": cursor},
            expect="json",
        )

    def create_system(
        self,
        body: CreateSystemBody,
        *,
        idempotency_key: str | None = None,
    ) -> CreateSystemResult:
        """Declare a computer system (SistemaInformatico) (POST /systems)."""
        return self._call(
            "POST",
            "/systems",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def get_system(
        self,
        id: str,
    ) -> GetSystemResult:
        """One computer system (GET /systems/{id})."""
        return self._call(
            "GET",
            "/systems/{id}",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def update_system(
        self,
        id: str,
        body: UpdateSystemBody,
        *,
        idempotency_key: str | None = None,
    ) -> UpdateSystemResult:
        """Change a computer system (only the fields given) (PUT /systems/{id})."""
        return self._call(
            "PUT",
            "/systems/{id}",
            path_params={"id": id},
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def delete_system(
        self,
        id: str,
    ) -> None:
        """Delete an unused computer system (DELETE /systems/{id})."""
        return self._call(
            "DELETE",
            "/systems/{id}",
            path_params={"id": id},
            expect="none",
        )

    def validate_invoice(
        self,
        body: ValidateInvoiceBody,
        *,
        idempotency_key: str | None = None,
    ) -> ValidateInvoiceResult:
        """Dry run: every check a registration makes, nothing stored (POST /invoices/validate)."""
        return self._call(
            "POST",
            "/invoices/validate",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def classify_sale(
        self,
        body: ClassifySaleBody,
        *,
        idempotency_key: str | None = None,
    ) -> ClassifySaleResult:
        """Suggest operation type, regime and tax for a sale (POST /invoices/classify)."""
        return self._call(
            "POST",
            "/invoices/classify",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def export_invoices(
        self,
        *,
        taxpayer_id: str | None = None,
        status: str | None = None,
        invoice_type: str | None = None,
        kind: Literal["normal", "corrective"] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        recipient_nif: str | None = None,
        number_prefix: str | None = None,
        q: str | None = None,
        sort: Literal["-created_at", "created_at", "-invoice_date", "invoice_date", "-invoice_number", "invoice_number", "-total_amount", "total_amount"] | None = None,
        format: Literal["csv"] | None = None,
        decimal: Literal["point", "comma"] | None = None,
    ) -> str:
        """Export the invoices matching the list’s filters as CSV (streamed) (GET /invoices/export)."""
        return self._call(
            "GET",
            "/invoices/export",
            query={
                "taxpayer_id": taxpayer_id,
                "status": status,
                "invoice_type": invoice_type,
                "kind": kind,
                "date_from": date_from,
                "date_to": date_to,
                "recipient_nif": recipient_nif,
                "number_prefix": number_prefix,
                "q": q,
                "sort": sort,
                "format": format,
                "decimal": decimal,
            },
            headers={"Accept": "text/csv"},
            expect="text",
        )

    def list_invoices(
        self,
        *,
        taxpayer_id: str | None = None,
        status: str | None = None,
        invoice_type: str | None = None,
        kind: Literal["normal", "corrective"] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        recipient_nif: str | None = None,
        number_prefix: str | None = None,
        q: str | None = None,
        sort: Literal["-created_at", "created_at", "-invoice_date", "invoice_date", "-invoice_number", "invoice_number", "-total_amount", "total_amount"] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> ListInvoicesResponse:
        """List invoices, one row per invoice in its current state (GET /invoices)."""
        return self._call(
            "GET",
            "/invoices",
            query={
                "taxpayer_id": taxpayer_id,
                "status": status,
                "invoice_type": invoice_type,
                "kind": kind,
                "date_from": date_from,
                "date_to": date_to,
                "recipient_nif": recipient_nif,
                "number_prefix": number_prefix,
                "q": q,
                "sort": sort,
                "limit": limit,
                "cursor": cursor,
            },
            expect="json",
        )

    def register_invoice(
        self,
        body: RegisterInvoiceBody,
        *,
        idempotency_key: str | None = None,
        sandbox_scenario: str | None = None,
        recipient_check: Literal["warn", "refuse"] | None = None,
    ) -> RegisterInvoiceResponse:
        """Register an invoice (alta): validate, chain, queue for the authority (POST /invoices)."""
        return self._call(
            "POST",
            "/invoices",
            query={"recipient_check": recipient_check},
            body=body,
            headers={"Idempotency-Key": idempotency_key, "Sandbox-Scenario": sandbox_scenario},
            expect="json",
        )

    def get_invoice(
        self,
        id: str,
    ) -> GetInvoiceResult:
        """One invoice: current state, records and history (GET /invoices/{id})."""
        return self._call(
            "GET",
            "/invoices/{id}",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def correct_invoice(
        self,
        id: str,
        body: CorrectInvoiceBody,
        *,
        idempotency_key: str | None = None,
        sandbox_scenario: str | None = None,
    ) -> CorrectInvoiceResult:
        """Correct an invoice (subsanación), or reactivate a cancelled one: a new record with the full corrected content (PUT /invoices/{id})."""
        return self._call(
            "PUT",
            "/invoices/{id}",
            path_params={"id": id},
            body=body,
            headers={"Idempotency-Key": idempotency_key, "Sandbox-Scenario": sandbox_scenario},
            expect="json",
            unwrap="data",
        )

    def cancel_invoice(
        self,
        id: str,
        body: CancelInvoiceBody,
        *,
        idempotency_key: str | None = None,
        sandbox_scenario: str | None = None,
    ) -> CancelInvoiceResult:
        """Cancel an invoice (anulación) (POST /invoices/{id}/cancel)."""
        return self._call(
            "POST",
            "/invoices/{id}/cancel",
            path_params={"id": id},
            body=body,
            headers={"Idempotency-Key": idempotency_key, "Sandbox-Scenario": sandbox_scenario},
            expect="json",
            unwrap="data",
        )

    def get_invoice_record_xml(
        self,
        id: str,
        record_id: str,
    ) -> str:
        """The XML of one record, as sent (or as it will be sent) (GET /invoices/{id}/records/{recordId}/xml)."""
        return self._call(
            "GET",
            "/invoices/{id}/records/{recordId}/xml",
            path_params={"id": id, "recordId": record_id},
            headers={"Accept": "application/xml"},
            expect="text",
        )

    def list_invoice_submissions(
        self,
        id: str,
    ) -> ListInvoiceSubmissionsResult:
        """The SOAP exchanges that carried the invoice’s records (GET /invoices/{id}/submissions)."""
        return self._call(
            "GET",
            "/invoices/{id}/submissions",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def verify_invoice_record(
        self,
        id: str,
        record_id: str,
    ) -> VerifyInvoiceRecordResult:
        """Verify one record as stored: its huella, its link to the record before it, and its signature (GET /invoices/{id}/records/{recordId}/verification)."""
        return self._call(
            "GET",
            "/invoices/{id}/records/{recordId}/verification",
            path_params={"id": id, "recordId": record_id},
            expect="json",
            unwrap="data",
        )

    def register_invoice_batch(
        self,
        body: RegisterInvoiceBatchBody,
        *,
        idempotency_key: str | None = None,
        recipient_check: Literal["warn", "refuse"] | None = None,
    ) -> RegisterInvoiceBatchResponse:
        """Register up to 1,000 invoices in one request (POST /invoices/batch)."""
        return self._call(
            "POST",
            "/invoices/batch",
            query={"recipient_check": recipient_check},
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
        )

    def resend_invoice(
        self,
        id: str,
        *,
        idempotency_key: str | None = None,
    ) -> ResendInvoiceResult:
        """Send an invoice in error to the authority again, unchanged (POST /invoices/{id}/resend)."""
        return self._call(
            "POST",
            "/invoices/{id}/resend",
            path_params={"id": id},
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def get_chain(
        self,
        nif: str,
        *,
        environment: Literal["sandbox", "production"] | None = None,
    ) -> GetChainResult:
        """State of a taxpayer’s hash chain (GET /chain/{nif})."""
        return self._call(
            "GET",
            "/chain/{nif}",
            path_params={"nif": nif},
            query={"environment": environment},
            expect="json",
            unwrap="data",
        )

    def verify_chain(
        self,
        nif: str,
        *,
        environment: Literal["sandbox", "production"] | None = None,
        from_: int | None = None,
        to: int | None = None,
    ) -> VerifyChainResult:
        """Verify a chain, or a range of it: every huella, every link and every signature (GET /chain/{nif}/verification)."""
        return self._call(
            "GET",
            "/chain/{nif}/verification",
            path_params={"nif": nif},
            query={"environment": environment, "from": from_, "to": to},
            expect="json",
            unwrap="data",
        )

    def get_invoice_qr(
        self,
        id: str,
        *,
        accept: Literal["image/png", "image/svg+xml"] = "image/png",
    ) -> bytes:
        """The invoice’s QR code as PNG or SVG (GET /invoices/{id}/qr)."""
        return self._call(
            "GET",
            "/invoices/{id}/qr",
            path_params={"id": id},
            headers={"Accept": accept},
            expect="bytes",
        )

    def list_webhooks(
        self,
    ) -> ListWebhooksResult:
        """Your webhook endpoints (GET /webhooks)."""
        return self._call(
            "GET",
            "/webhooks",
            expect="json",
            unwrap="data",
        )

    def create_webhook(
        self,
        body: CreateWebhookBody,
        *,
        idempotency_key: str | None = None,
    ) -> CreateWebhookResult:
        """Add an endpoint for invoice events (Standard Webhooks signatures) (POST /webhooks)."""
        return self._call(
            "POST",
            "/webhooks",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def get_webhook(
        self,
        id: str,
    ) -> GetWebhookResult:
        """One endpoint (GET /webhooks/{id})."""
        return self._call(
            "GET",
            "/webhooks/{id}",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def delete_webhook(
        self,
        id: str,
    ) -> None:
        """Remove an endpoint (DELETE /webhooks/{id})."""
        return self._call(
            "DELETE",
            "/webhooks/{id}",
            path_params={"id": id},
            expect="none",
        )

    def list_webhook_deliveries(
        self,
        id: str,
        *,
        limit: int | None = None,
    ) -> ListWebhookDeliveriesResult:
        """Recent deliveries to an endpoint (GET /webhooks/{id}/deliveries)."""
        return self._call(
            "GET",
            "/webhooks/{id}/deliveries",
            path_params={"id": id},
            query={"limit": limit},
            expect="json",
            unwrap="data",
        )

    def test_webhook(
        self,
        id: str,
        *,
        idempotency_key: str | None = None,
    ) -> TestWebhookResult:
        """Queue a test event to an endpoint (POST /webhooks/{id}/test)."""
        return self._call(
            "POST",
            "/webhooks/{id}/test",
            path_params={"id": id},
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def verify_tax_ids(
        self,
        body: VerifyTaxIdsBody,
        *,
        idempotency_key: str | None = None,
    ) -> VerifyTaxIdsResult:
        """Check Spanish tax IDs against the authority’s census, and EU VAT numbers with VIES (POST /tax-ids/check)."""
        return self._call(
            "POST",
            "/tax-ids/check",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def list_tax_id_checks(
        self,
        *,
        tax_id: str | None = None,
        limit: int | None = None,
    ) -> ListTaxIdChecksResult:
        """Your evidence of the tax IDs you checked (GET /tax-ids/checks)."""
        return self._call(
            "GET",
            "/tax-ids/checks",
            query={"tax_id": tax_id, "limit": limit},
            expect="json",
            unwrap="data",
        )

    def list_sandbox_scenarios(
        self,
    ) -> ListSandboxScenariosResult:
        """The sandbox scenarios: what each makes the (simulated) authority answer, and what to expect (GET /sandbox/scenarios)."""
        return self._call(
            "GET",
            "/sandbox/scenarios",
            expect="json",
            unwrap="data",
        )

    def list_remissions(
        self,
        id: str,
    ) -> ListRemissionsResult:
        """A taxpayer's remissions on request (GET /taxpayers/{id}/remissions)."""
        return self._call(
            "GET",
            "/taxpayers/{id}/remissions",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def create_remission(
        self,
        id: str,
        body: CreateRemissionBody,
        *,
        idempotency_key: str | None = None,
    ) -> CreateRemissionResult:
        """Send a taxpayer's kept records on the authority's request (requerimiento) (POST /taxpayers/{id}/remissions)."""
        return self._call(
            "POST",
            "/taxpayers/{id}/remissions",
            path_params={"id": id},
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def get_remission(
        self,
        id: str,
        remission_id: str,
    ) -> GetRemissionResult:
        """A remission on request, message by message (GET /taxpayers/{id}/remissions/{remissionId})."""
        return self._call(
            "GET",
            "/taxpayers/{id}/remissions/{remissionId}",
            path_params={"id": id, "remissionId": remission_id},
            expect="json",
            unwrap="data",
        )

    def create_tax_id_list(
        self,
        body: CreateTaxIdListBody,
        *,
        idempotency_key: str | None = None,
    ) -> CreateTaxIdListResult:
        """Check a list of up to 10,000 tax IDs, answered asynchronously (POST /tax-ids/lists)."""
        return self._call(
            "POST",
            "/tax-ids/lists",
            body=body,
            headers={"Idempotency-Key": idempotency_key},
            expect="json",
            unwrap="data",
        )

    def get_tax_id_list(
        self,
        id: str,
    ) -> GetTaxIdListResult:
        """A list of tax IDs: its progress (GET /tax-ids/lists/{id})."""
        return self._call(
            "GET",
            "/tax-ids/lists/{id}",
            path_params={"id": id},
            expect="json",
            unwrap="data",
        )

    def list_tax_id_list_results(
        self,
        id: str,
        *,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> ListTaxIdListResultsResponse:
        """A list’s answers, a page at a time, in the list’s order (GET /tax-ids/lists/{id}/results)."""
        return self._call(
            "GET",
            "/tax-ids/lists/{id}/results",
            path_params={"id": id},
            query={"cursor": cursor, "limit": limit},
            expect="json",
        )

    def export_tax_id_list_results(
        self,
        id: str,
    ) -> str:
        """A list’s answers as CSV (GET /tax-ids/lists/{id}/results.csv)."""
        return self._call(
            "GET",
            "/tax-ids/lists/{id}/results.csv",
            path_params={"id": id},
            headers={"Accept": "text/csv"},
            expect="text",
        )
